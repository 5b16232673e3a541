/* test-tdf.c: TDF syntax, OTA map descriptions, feature catalogues
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures are written here from field-notes.md ("Total Annihilation
 * ecosystem"); the real OTAs of the corpus are checked when it is present.
 * Edits are checked byte by byte against the text they must produce.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "libterrain.h"

/* A feature TDF in the game's style, with everything the syntax allows:
 * comments of both kinds (one inside a value), a stray ';', case changes,
 * blank values, a nested block, spaces around '=' and a missing footprint. */
static const char feature_tdf[] =
  "// Features of the green world\r\n"
  "[Tree1]\r\n"
  "\t{\r\n"
  "\tworld=greenworld;\r\n"
  "\tdescription=Tree;\r\n"
  "\tcategory=trees;\r\n"
  "\tobject=tree1;\r\n"
  "\tFootprintX=1;\r\n"
  "\tfootprintz=1;\r\n"
  "\theight=30;\r\n"
  "\tblocking=1;\r\n"
  "\treclaimable=1;\r\n"
  "\tenergy=250;\r\n"
  "\t}\r\n"
  ";\r\n"
  "/* rocks\r\n"
  "   follow */\r\n"
  "[ROCK2]\r\n"
  "\t{\r\n"
  "\tworld = greenworld ;\r\n"
  "\tdescription=Big /* really */ rock;\r\n"
  "\tfootprintx=3;\r\n"
  "\tfootprintZ=2;\r\n"
  "\tmetal=40;\r\n"
  "\tnodisplayinfo=;\r\n"
  "\t[extra]\r\n"
  "\t\t{\r\n"
  "\t\tfootprintx=9;\r\n"
  "\t\t}\r\n"
  "\t}\r\n"
  "[Smudge]\r\n"
  "\t{\r\n"
  "\tworld=greenworld;\r\n"
  "\tfilename=smudges;\r\n"
  "\t}\r\n";

/* An OTA laid out like the corpus's ban.ota (spaces, CRLF). */
static const char ota_text[] =
  "[GlobalHeader]\r\n"
  "    {\r\n"
  "    missionname=Test Map;\r\n"
  "    missiondescription=8 x 8 test;\r\n"
  "    planet=Green Planet;\r\n"
  "    size=8 x 8;\r\n"
  "    numplayers=2;\r\n"
  "    SCHEMACOUNT=1;\r\n"
  "    [Schema 0]\r\n"
  "        {\r\n"
  "        Type=Network 1;\r\n"
  "        MohoMetal=30;\r\n"
  "        [specials]\r\n"
  "            {\r\n"
  "            [special0]\r\n"
  "                {\r\n"
  "                specialwhat=StartPos1;\r\n"
  "                XPos=524;\r\n"
  "                ZPos=1027;\r\n"
  "                }\r\n"
  "            [special1]\r\n"
  "                {\r\n"
  "                specialwhat=startpos2;\r\n"
  "                XPos=7923;\r\n"
  "                ZPos=549;\r\n"
  "                }\r\n"
  "            }\r\n"
  "        }\r\n"
  "    }\r\n";

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static TerrainTdfDocument *
parse (const char *text)
{
  g_autoptr(GBytes) bytes = text_bytes (text);
  g_autoptr(GError) error = NULL;
  TerrainTdfDocument *document = terrain_tdf_document_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

static char *
save_text (TerrainDocument *document)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_document_save_to_bytes (document, &error);
  gsize size = 0;
  const char *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  return g_strndup (data, size);
}

/* Replaces the first @old in @text by @replacement: the expected result of
 * an edit that touches only those bytes. */
static char *
splice (const char *text,
        const char *old,
        const char *replacement)
{
  const char *at = strstr (text, old);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, replacement, at + strlen (old));
}

static void
assert_round_trip (const char *text)
{
  g_autoptr(TerrainTdfDocument) document = parse (text);
  g_autoptr(GBytes) original = text_bytes (text);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (original, written));
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (document), written, NULL, NULL));
}

static void
test_parse_features (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  TerrainTdfSection *root = terrain_tdf_document_get_root (document);
  TerrainTdfSection *tree, *rock, *extra;
  g_autoptr(GPtrArray) issues = NULL;
  gint64 value;

  g_assert_cmpuint (terrain_tdf_section_get_n_sections (root), ==, 3);
  g_assert_null (terrain_tdf_section_get_name (root));
  g_assert_null (terrain_tdf_section_get_parent (root));
  g_assert_cmpint (terrain_tdf_section_get_offset (root), ==, 0);

  /* Names and keys are case-insensitive. */
  tree = terrain_tdf_section_find_section (root, "TREE1");
  g_assert_nonnull (tree);
  g_assert_cmpstr (terrain_tdf_section_get_name (tree), ==, "Tree1");
  g_assert_true (terrain_tdf_section_get_parent (tree) == root);
  g_assert_cmpint (terrain_tdf_section_get_offset (tree), ==,
                   strstr (feature_tdf, "[Tree1]") - feature_tdf);
  g_assert_cmpuint (terrain_tdf_section_get_n_keys (tree), ==, 10);
  g_assert_cmpstr (terrain_tdf_section_get_key (tree, 4), ==, "FootprintX");
  g_assert_cmpstr (terrain_tdf_section_get_value_at (tree, 4), ==, "1");
  g_assert_cmpstr (terrain_tdf_section_get_value (tree, "footprintx"), ==, "1");
  g_assert_cmpstr (terrain_tdf_section_get_value (tree, "WORLD"), ==, "greenworld");
  g_assert_true (terrain_tdf_section_get_int (tree, "height", &value));
  g_assert_cmpint (value, ==, 30);
  g_assert_false (terrain_tdf_section_get_int (tree, "world", &value));
  g_assert_false (terrain_tdf_section_get_int (tree, "missing", &value));
  g_assert_null (terrain_tdf_section_get_key (tree, 10));
  g_assert_null (terrain_tdf_section_get_value_at (tree, 99));

  /* Blanks around values are not part of them; a comment inside is skipped. */
  rock = terrain_tdf_document_find_section (document, "rock2");
  g_assert_nonnull (rock);
  g_assert_cmpstr (terrain_tdf_section_get_value (rock, "world"), ==, "greenworld");
  g_assert_cmpstr (terrain_tdf_section_get_value (rock, "description"), ==, "Big  rock");
  g_assert_cmpstr (terrain_tdf_section_get_value (rock, "nodisplayinfo"), ==, "");
  g_assert_cmpuint (terrain_tdf_section_get_n_sections (rock), ==, 1);
  extra = terrain_tdf_document_find_section (document, "Rock2/EXTRA");
  g_assert_nonnull (extra);
  g_assert_true (terrain_tdf_section_get_section (rock, 0) == extra);
  g_assert_null (terrain_tdf_section_get_section (rock, 1));
  g_assert_cmpstr (terrain_tdf_section_get_value (extra, "footprintx"), ==, "9");
  g_assert_null (terrain_tdf_document_find_section (document, "Rock2/none"));

  assert_round_trip (feature_tdf);

  /* The stray ';' is a remark, not a warning. */
  issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_assert_cmpuint (issues->len, ==, 1);
  g_assert_cmpint (terrain_issue_get_severity (g_ptr_array_index (issues, 0)), ==,
                   TERRAIN_SEVERITY_INFO);
}

/* Texts that are unusual but valid: each parses and writes back as it was. */
static void
test_parse_tolerated (void)
{
  static const char * const texts[] = {
    "",
    "\r\n\r\n",
    "// only a comment",
    "/* only a comment */",
    "[A]{}",
    "[A]{k=v;}",
    "[ A ] /* c */ { k = v ; ; ; }",
    "\xEF\xBB\xBF[A]\n{\nk=v;\n}\n",              /* UTF-8 byte-order mark, LF */
    "[A]\n{\nk=v;\n}\n\x1A",                     /* DOS end-of-file byte */
    "[A]\n{\nk=v;\n}\n\0\0",                     /* NUL padding (counted below) */
    "[A]\n{\nk=a=b;\n}",                         /* '=' inside a value */
    "[A]\n{\nk=v // not a comment end;\n;}",     /* ';' inside a line comment */
    "[A]\n{\nk=;\n}",
    "[A]\n{\n[B]\n{\n[C]\n{\nk=v;\n}\n}\n}",
    "[A]\n{\nk=v;\n",                            /* not closed: tolerated */
    "[A]\n{\nname=caf\xE9;\n}",                  /* Windows-1252 text */
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_test_message ("text %u", i);
      assert_round_trip (texts[i]);
    }

  {
    static const char padded[] = "[A]\n{\nk=v;\n}\n\0\0";
    g_autoptr(GBytes) bytes = g_bytes_new (padded, sizeof padded - 1);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTdfDocument) document =
      terrain_tdf_document_new_from_bytes (bytes, NULL, &error);
    g_autoptr(GBytes) written = NULL;

    g_assert_no_error (error);
    written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);
    g_assert_true (g_bytes_equal (bytes, written));
  }

  /* The comment inside the value hides the ';'. */
  {
    g_autoptr(TerrainTdfDocument) document = parse ("[A]\n{\nk=v // x;\n;}");
    TerrainTdfSection *a = terrain_tdf_document_find_section (document, "A");

    g_assert_cmpstr (terrain_tdf_section_get_value (a, "k"), ==, "v");
  }
  {
    g_autoptr(TerrainTdfDocument) document = parse ("[A]\n{\nk=v;\n");
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
    gboolean any;

    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);
    g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                              "not closed"));
  }
}

/* A statement without '=' ("107;" at line 216 of Cavedog's CC17.OTA) is
 * skipped as the game skips it: the file loads, the keys around it read,
 * validation warns with its line and byte offset, and the text is kept. */
static void
test_parse_stray_statement (void)
{
  static const char text[] =
    "[GlobalHeader]\r\n{\r\n\tmissionname=Cc17;\r\n107;\r\n\tplanet=Crater;\r\n"
    "\t[Schema 0]\r\n\t{\r\n\t\tkey value ;\r\n\t\ttype=network 1;\r\n\t}\r\n}\r\n";
  g_autoptr(TerrainTdfDocument) document = parse (text);
  TerrainTdfSection *header = terrain_tdf_document_find_section (document, "GlobalHeader");
  TerrainTdfSection *schema = terrain_tdf_document_find_section (document,
                                                                 "GlobalHeader/Schema 0");
  g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  const char *message;
  gboolean any;

  g_assert_cmpstr (terrain_tdf_section_get_value (header, "missionname"), ==, "Cc17");
  g_assert_cmpstr (terrain_tdf_section_get_value (header, "planet"), ==, "Crater");
  g_assert_cmpstr (terrain_tdf_section_get_value (schema, "type"), ==, "network 1");
  g_assert_null (terrain_tdf_section_get_value (header, "107"));

  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpuint (issues->len, ==, 1);
  message = terrain_issue_get_message (g_ptr_array_index (issues, 0));
  g_assert_nonnull (strstr (message, "2 statements without '='"));
  g_assert_nonnull (strstr (message, "\"107;\""));
  g_assert_nonnull (strstr (message, "line 4"));
  g_assert_nonnull (strstr (message, "byte offset 39"));
  g_assert_cmpint (terrain_issue_get_offset (g_ptr_array_index (issues, 0)), ==, 39);

  /* Kept byte-exact, also through an edit elsewhere. */
  assert_round_trip (text);
  g_assert_true (terrain_tdf_document_set_value (document, header, "planet", "Lava", &error));
  g_assert_no_error (error);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (written, NULL), g_bytes_get_size (written),
                                  "Cc17;\r\n107;\r\n\tplanet=Lava;"));
}

static void
test_parse_errors (void)
{
  static const struct
  {
    const char *text;
    gint code;      /* TerrainError */
    gsize offset;   /* byte offset the message must name */
  } cases[] = {
    { "[A]\n{\n/* not closed", TERRAIN_ERROR_TRUNCATED, 6 },
    { "}", TERRAIN_ERROR_INVALID_VALUE, 0 },
    { "[A]\n{\n}\n}", TERRAIN_ERROR_INVALID_VALUE, 8 },
    { "[A] x {}", TERRAIN_ERROR_INVALID_VALUE, 4 },
    { "[A", TERRAIN_ERROR_TRUNCATED, 0 },
    { "[A\n]{}", TERRAIN_ERROR_INVALID_VALUE, 2 },
    { "[A]", TERRAIN_ERROR_TRUNCATED, 3 },
    { "[A]\n{\nkey\n=value;\n}", TERRAIN_ERROR_INVALID_VALUE, 9 },
    { "[A]\n{\n=value;\n}", TERRAIN_ERROR_INVALID_VALUE, 6 },
    { "[A]\n{\nkey=value", TERRAIN_ERROR_TRUNCATED, 6 },
    { "[A]\n{\nkey", TERRAIN_ERROR_TRUNCATED, 6 },
    { "{k=v;}", TERRAIN_ERROR_INVALID_VALUE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = text_bytes (cases[i].text);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTdfDocument) document = NULL;
      g_autofree char *where = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT " ",
                                                cases[i].offset);

      document = terrain_tdf_document_new_from_bytes (bytes, NULL, &error);
      g_test_message ("case %u: %s", i, error != NULL ? error->message : "(loaded)");
      g_assert_null (document);
      g_assert_error (error, TERRAIN_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, where));
      g_assert_nonnull (strstr (error->message, "line "));
    }
}

static void
test_parse_depth (void)
{
  GString *deep = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTdfDocument) document = NULL;

  for (guint i = 0; i < TERRAIN_TDF_MAX_DEPTH; i++)
    g_string_append (deep, "[a]{");
  for (guint i = 0; i < TERRAIN_TDF_MAX_DEPTH; i++)
    g_string_append (deep, "}");
  bytes = g_bytes_new (deep->str, deep->len);
  document = terrain_tdf_document_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&document);
  g_clear_pointer (&bytes, g_bytes_unref);

  g_string_prepend (deep, "[a]{");
  g_string_append (deep, "}");
  bytes = g_bytes_new (deep->str, deep->len);
  document = terrain_tdf_document_new_from_bytes (bytes, NULL, &error);
  g_assert_null (document);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_string_free (deep, TRUE);
}

/* Every prefix of a valid text either loads and writes back as it was, or
 * fails with a TERRAIN_ERROR: never a crash. Likewise with bytes changed. */
static void
test_parse_truncations (void)
{
  gsize n = strlen (ota_text);
  g_autofree char *copy = g_memdup2 (ota_text, n);
  static const char specials[] = "[]{}=;/*\n\0";

  for (gsize length = 0; length <= n; length++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (ota_text, length);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTdfDocument) document =
        terrain_tdf_document_new_from_bytes (bytes, NULL, &error);

      if (document == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == TERRAIN_ERROR);
        }
      else
        {
          g_autoptr(GBytes) written =
            terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);

          g_assert_true (g_bytes_equal (bytes, written));
        }
    }

  for (gsize at = 0; at < n; at++)
    for (guint k = 0; k < sizeof specials - 1; k++)
      {
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(TerrainTdfDocument) document = NULL;
        char saved = copy[at];

        copy[at] = specials[k];
        bytes = g_bytes_new (copy, n);
        document = terrain_tdf_document_new_from_bytes (bytes, NULL, &error);
        if (document == NULL)
          g_assert_true (error->domain == TERRAIN_ERROR);
        else
          {
            g_autoptr(GBytes) written =
              terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);
            g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
            g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (document));

            /* Validating and describing a mutated text works too. */
            g_assert_nonnull (issues);
            g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
            g_assert_true (g_bytes_equal (bytes, written));
          }
        copy[at] = saved;
      }
}

static void
test_edit_value (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  TerrainTdfSection *rock = terrain_tdf_document_find_section (document, "ROCK2");
  TerrainTdfSection *tree = terrain_tdf_document_find_section (document, "Tree1");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *step = NULL;

  /* Setting the same value changes nothing. */
  g_assert_true (terrain_tdf_document_set_value (document, tree, "HEIGHT", "30", &error));
  g_assert_no_error (error);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (document)));

  /* Only the value's bytes change: the key's spelling, the blanks around
   * the value and the comment-free remainder stay. */
  g_assert_true (terrain_tdf_document_set_value (document, rock, "WORLD", "moonworld", &error));
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (document)));
  g_assert_true (terrain_tdf_document_set_value (document, tree, "height", "1234", &error));
  g_assert_true (terrain_tdf_document_set_value (document, rock, "nodisplayinfo", "1", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (terrain_tdf_section_get_value (rock, "world"), ==, "moonworld");

  step = splice (feature_tdf, "\theight=30;", "\theight=1234;");
  expected = splice (step, "world = greenworld ;", "world = moonworld ;");
  g_free (step);
  step = g_steal_pointer (&expected);
  expected = splice (step, "nodisplayinfo=;", "nodisplayinfo=1;");
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, expected);

  /* Setting the original values back gives the original bytes. */
  g_assert_true (terrain_tdf_document_set_value (document, rock, "world", "greenworld", &error));
  g_assert_true (terrain_tdf_document_set_value (document, tree, "height", "30", &error));
  g_assert_true (terrain_tdf_document_set_value (document, rock, "nodisplayinfo", "", &error));
  g_free (text);
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, feature_tdf);
}

static void
test_edit_invalid (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  TerrainTdfSection *tree = terrain_tdf_document_find_section (document, "Tree1");
  TerrainTdfSection *root = terrain_tdf_document_get_root (document);
  static const char * const bad_values[] = {
    "a;b", "line\nbreak", "x // y", "x /* y", " padded", "padded ",
  };
  static const char * const bad_keys[] = {
    "", "a=b", "a;b", "[a]", "a{", " k", "k\r",
  };
  static const char * const bad_names[] = {
    "", "a]b", "a[b", "{", "x;", " a",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad_values); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (terrain_tdf_document_set_value (document, tree, "height", bad_values[i],
                                                      &error));
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_keys); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (terrain_tdf_document_set_value (document, tree, bad_keys[i], "1", &error));
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (terrain_tdf_document_add_section (document, root, bad_names[i], &error));
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    }
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (document)));
  {
    g_autofree char *text = save_text (TERRAIN_DOCUMENT (document));

    g_assert_cmpstr (text, ==, feature_tdf);
  }
}

static void
test_edit_add (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  TerrainTdfSection *root = terrain_tdf_document_get_root (document);
  TerrainTdfSection *rock = terrain_tdf_document_find_section (document, "ROCK2");
  TerrainTdfSection *extra = terrain_tdf_document_find_section (document, "rock2/extra");
  TerrainTdfSection *added, *inner;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *step = NULL;
  g_autoptr(TerrainTdfDocument) reparsed = NULL;

  /* A new key goes after the last key, before the nested block, indented
   * like its neighbours; a new key in the nested block at its indentation. */
  g_assert_true (terrain_tdf_document_set_value (document, rock, "hitdensity", "5", &error));
  g_assert_true (terrain_tdf_document_set_value (document, extra, "footprintz", "4", &error));
  /* A new top-level block goes at the end, in the file's style. */
  added = terrain_tdf_document_add_section (document, root, "Tree9", &error);
  g_assert_no_error (error);
  g_assert_nonnull (added);
  g_assert_cmpint (terrain_tdf_section_get_offset (added), ==, -1);
  g_assert_true (terrain_tdf_document_set_value (document, added, "footprintx", "2", &error));
  inner = terrain_tdf_document_add_section (document, added, "inner", &error);
  g_assert_true (terrain_tdf_document_set_value (document, inner, "k", "v", &error));
  g_assert_no_error (error);

  step = splice (feature_tdf, "\tnodisplayinfo=;", "\tnodisplayinfo=;\r\n\thitdensity=5;");
  expected = splice (step, "\t\tfootprintx=9;", "\t\tfootprintx=9;\r\n\t\tfootprintz=4;");
  g_free (step);
  step = g_steal_pointer (&expected);
  expected = splice (step, "\tfilename=smudges;\r\n\t}",
                     "\tfilename=smudges;\r\n\t}\r\n"
                     "[Tree9]\r\n\t{\r\n\tfootprintx=2;\r\n"
                     "\t[inner]\r\n\t\t{\r\n\t\tk=v;\r\n\t\t}\r\n\t}");
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, expected);

  /* What was written reads back to the same model. */
  reparsed = parse (text);
  g_assert_cmpstr (terrain_tdf_section_get_value (
                     terrain_tdf_document_find_section (reparsed, "Tree9/inner"), "k"), ==, "v");
  g_assert_cmpstr (terrain_tdf_section_get_value (
                     terrain_tdf_document_find_section (reparsed, "rock2"), "hitdensity"), ==, "5");
}

static void
test_edit_remove (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  TerrainTdfSection *tree = terrain_tdf_document_find_section (document, "Tree1");
  TerrainTdfSection *extra = terrain_tdf_document_find_section (document, "rock2/extra");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *step = NULL;

  g_assert_false (terrain_tdf_document_remove_key (document, tree, "nothing"));
  g_assert_true (terrain_tdf_document_remove_key (document, tree, "HEIGHT"));
  g_assert_null (terrain_tdf_section_get_value (tree, "height"));
  g_assert_cmpuint (terrain_tdf_section_get_n_keys (tree), ==, 9);
  terrain_tdf_document_remove_section (document, extra);
  g_assert_null (terrain_tdf_document_find_section (document, "rock2/extra"));

  step = splice (feature_tdf, "\r\n\theight=30;", "");
  expected = splice (step, "\r\n\t[extra]\r\n\t\t{\r\n\t\tfootprintx=9;\r\n\t\t}", "");
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, expected);

  /* Removing a key then adding it again puts it at the end of its block. */
  g_assert_true (terrain_tdf_document_set_value (document, tree, "height", "30", &error));
  g_free (text);
  g_free (step);
  step = splice (feature_tdf, "\r\n\theight=30;", "");
  g_free (expected);
  expected = splice (step, "\tenergy=250;", "\tenergy=250;\r\n\theight=30;");
  g_free (step);
  step = g_steal_pointer (&expected);
  expected = splice (step, "\r\n\t[extra]\r\n\t\t{\r\n\t\tfootprintx=9;\r\n\t\t}", "");
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, expected);
}

static void
test_new_document (void)
{
  g_autoptr(TerrainTdfDocument) document = terrain_tdf_document_new ();
  TerrainTdfSection *root = terrain_tdf_document_get_root (document);
  TerrainTdfSection *a, *b;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (terrain_document_get_format (TERRAIN_DOCUMENT (document)), ==,
                   TERRAIN_FORMAT_TDF);
  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, "");
  g_free (text);

  a = terrain_tdf_document_add_section (document, root, "A", &error);
  g_assert_true (terrain_tdf_document_set_value (document, a, "x", "1", &error));
  b = terrain_tdf_document_add_section (document, root, "B", &error);
  g_assert_true (terrain_tdf_document_set_value (document, b, "y", "", &error));
  g_assert_no_error (error);

  text = save_text (TERRAIN_DOCUMENT (document));
  g_assert_cmpstr (text, ==, "[A]\r\n\t{\r\n\tx=1;\r\n\t}\r\n[B]\r\n\t{\r\n\ty=;\r\n\t}\r\n");
  assert_round_trip (text);
}

static void
test_describe (void)
{
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (document));
  JsonObject *object = json_node_get_object (node);
  g_autofree char *where = NULL;
  gsize offset = strstr (feature_tdf, "metal=40") - feature_tdf;

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "tdf");
  g_assert_cmpint (json_object_get_int_member (object, "blocks"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (object, "keys"), ==, 19);
  g_assert_cmpint (json_object_get_int_member (object, "depth"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (object, "line_breaks"), ==, "CRLF");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "top_level")),
                    ==, 3);

  where = terrain_document_describe_offset (TERRAIN_DOCUMENT (document), offset + 2);
  g_assert_cmpstr (where, ==, "[ROCK2], key \"metal\" (line 24)");
}

static void
test_validate (void)
{
  g_autoptr(TerrainTdfDocument) document =
    parse ("[A]\n{\nk=1;\nK=2;\nv=multi\nline;\n}\n[a]\n{\n}\n");
  g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  guint repeated_key = 0, multiline = 0, repeated_block = 0;

  for (guint i = 0; i < issues->len; i++)
    {
      const char *message = terrain_issue_get_message (g_ptr_array_index (issues, i));

      g_test_message ("%s", message);
      repeated_key += strstr (message, "repeats key") != NULL;
      multiline += strstr (message, "line break") != NULL;
      repeated_block += strstr (message, "more than once") != NULL;
    }
  g_assert_cmpuint (repeated_key, ==, 1);
  g_assert_cmpuint (multiline, ==, 1);
  g_assert_cmpuint (repeated_block, ==, 1);
  /* The first of repeated keys counts. */
  g_assert_cmpstr (terrain_tdf_section_get_value (terrain_tdf_document_find_section (document, "a"),
                                                  "k"), ==, "1");
}

/* Validation reads the kept text while the tree is not built (opening
 * builds none) and the tree once it is: both must find the same. */
static void
assert_same_findings (GPtrArray *a,
                      GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      TerrainIssue *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

      g_assert_cmpint (terrain_issue_get_severity (x), ==, terrain_issue_get_severity (y));
      g_assert_cmpstr (terrain_issue_get_section (x), ==, terrain_issue_get_section (y));
      g_assert_cmpint (terrain_issue_get_offset (x), ==, terrain_issue_get_offset (y));
      g_assert_cmpstr (terrain_issue_get_message (x), ==, terrain_issue_get_message (y));
    }
}

static void
check_text_and_tree (GBytes        *bytes,
                     TerrainFormat  format)
{
  g_autoptr(TerrainDocument) document =
    terrain_document_load_bytes (bytes, NULL, format, NULL, NULL);
  g_autoptr(GPtrArray) from_text = NULL;
  g_autoptr(GPtrArray) from_tree = NULL;

  if (document == NULL)
    return;
  from_text = terrain_document_validate (document);
  g_assert_nonnull (terrain_tdf_document_get_root (TERRAIN_TDF_DOCUMENT (document)));
  from_tree = terrain_document_validate (document);
  assert_same_findings (from_text, from_tree);
}

static void
test_validate_without_tree (void)
{
  static const char * const seeds[] = {
    feature_tdf,
    ota_text,
    "[A]\n{\nk=1;\nK=2;\nv=multi\nline;\n}\n[a]\n{\n}\n",
    "[A]\n{\nk=a /* c;\n */ b;\nk=x // y\n z;\n[B]{}[b]{}\n",
    "[GlobalHeader]{missionname=a;SCHEMACOUNT=1;[Schema 0]{[specials]{[s]{specialwhat=StartPos1;"
    "XPos=1;ZPos=1;}[t]{specialwhat=StartPos1;XPos=x;ZPos=-2;}}}}",
  };
  /* Mutations made of what the syntax cares about, and NUL bytes, which end
   * keys and values as the tree holds them. */
  static const char pieces[] = ";=[]{}\n\r /*\0\x1a" "aA1-";
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261130);
  g_autoptr(GString) big = g_string_new ("[A]\n{\n");

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    for (guint m = 0; m < 300; m++)
      {
        g_autoptr(GString) text = g_string_new (seeds[s]);
        g_autoptr(GBytes) bytes = NULL;
        guint edits = (guint) g_rand_int_range (rand, 1, 6);

        for (guint e = 0; e < edits; e++)
          {
            gssize at = g_rand_int_range (rand, 0, (gint32) text->len + 1);
            char c = pieces[g_rand_int_range (rand, 0, sizeof pieces - 1)];

            if (g_rand_boolean (rand) || text->len == 0)
              g_string_insert_c (text, at, c);
            else
              g_string_erase (text, MIN (at, (gssize) text->len - 1), 1);
          }
        bytes = g_bytes_new (text->str, text->len);
        check_text_and_tree (bytes, TERRAIN_FORMAT_TDF);
        check_text_and_tree (bytes, TERRAIN_FORMAT_OTA);
      }

  /* A block of 40 keys in little text is read again for each key past the
   * 32nd; one too large for that keeps a set of names; an OTA with more
   * than 64 start positions, a set of players. */
  {
    g_autoptr(GString) medium = g_string_new ("[A]\n{\n");
    g_autoptr(GBytes) bytes = NULL;

    for (guint i = 0; i < 40; i++)
      g_string_append_printf (medium, "%c%d=%u;\n", g_rand_boolean (rand) ? 'k' : 'K',
                              g_rand_int_range (rand, 0, 30), i);
    g_string_append (medium, "}\n");
    bytes = g_bytes_new (medium->str, medium->len);
    check_text_and_tree (bytes, TERRAIN_FORMAT_TDF);
  }
  for (guint i = 0; i < 1500; i++)
    g_string_append_printf (big, "k%d=%u;\n", g_rand_int_range (rand, 0, 1200), i);
  g_string_append (big, "}\n[GlobalHeader]{missionname=a;SCHEMACOUNT=1;[Schema 0]{[specials]{");
  for (guint i = 0; i < 70; i++)
    g_string_append_printf (big, "[special%u]{specialwhat=StartPos%d;XPos=1;ZPos=1;}", i,
                            g_rand_int_range (rand, 1, 80));
  g_string_append (big, "}}}");
  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (big, "[s%d]{x=1;}\n", g_rand_int_range (rand, 0, 3000));
  {
    g_autoptr(GBytes) bytes = g_bytes_new (big->str, big->len);

    check_text_and_tree (bytes, TERRAIN_FORMAT_TDF);
    check_text_and_tree (bytes, TERRAIN_FORMAT_OTA);
  }
}

/* ------------------------------------------------------------------------ */
/* OTA                                                                       */

static TerrainOtaFile *
parse_ota (const char *text)
{
  g_autoptr(GBytes) bytes = text_bytes (text);
  g_autoptr(GError) error = NULL;
  TerrainOtaFile *ota = terrain_ota_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (ota);
  return ota;
}

static void
test_ota_typed (void)
{
  g_autoptr(TerrainOtaFile) ota = parse_ota (ota_text);
  g_autofree TerrainOtaStartPosition *positions = NULL;
  guint n = 0, w = 0, h = 0;
  gint x = 0, z = 0;
  g_autoptr(GPtrArray) issues = NULL;

  g_assert_cmpint (terrain_document_get_format (TERRAIN_DOCUMENT (ota)), ==, TERRAIN_FORMAT_OTA);
  g_assert_nonnull (terrain_ota_file_get_global_header (ota));
  g_assert_cmpstr (terrain_ota_file_get_mission_name (ota), ==, "Test Map");
  g_assert_cmpstr (terrain_ota_file_get_header_value (ota, "PLANET"), ==, "Green Planet");
  g_assert_cmpstr (terrain_ota_file_get_size (ota), ==, "8 x 8");
  g_assert_true (terrain_ota_file_parse_size (ota, &w, &h));
  g_assert_cmpuint (w, ==, 8);
  g_assert_cmpuint (h, ==, 8);
  g_assert_cmpint (terrain_ota_file_get_schema_count (ota), ==, 1);
  g_assert_cmpuint (terrain_ota_file_get_n_schemas (ota), ==, 1);
  g_assert_nonnull (terrain_ota_file_get_schema (ota, 0));
  g_assert_null (terrain_ota_file_get_schema (ota, 1));
  g_assert_cmpstr (terrain_ota_file_get_schema_type (ota, 0), ==, "Network 1");

  positions = terrain_ota_file_get_start_positions (ota, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (positions[0].player, ==, 1);
  g_assert_cmpint (positions[0].x, ==, 524);
  g_assert_cmpint (positions[0].z, ==, 1027);
  /* "startpos2": the value is case-insensitive too. */
  g_assert_cmpuint (positions[1].player, ==, 2);
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 2, &x, &z));
  g_assert_cmpint (x, ==, 7923);
  g_assert_cmpint (z, ==, 549);
  g_assert_false (terrain_ota_file_get_start_position (ota, 0, 3, &x, &z));
  g_assert_false (terrain_ota_file_get_start_position (ota, 1, 1, &x, &z));

  issues = terrain_document_validate (TERRAIN_DOCUMENT (ota));
  g_assert_cmpuint (issues->len, ==, 0);
  assert_round_trip (ota_text);
}

static void
test_ota_edit_start (void)
{
  g_autoptr(TerrainOtaFile) ota = parse_ota (ota_text);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *step = NULL;
  g_autoptr(TerrainOtaFile) reparsed = NULL;
  gint x, z;

  /* An existing position: only its digits change. */
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, 1, 600, 1027, &error));
  g_assert_no_error (error);
  step = splice (ota_text, "XPos=524;", "XPos=600;");
  text = save_text (TERRAIN_DOCUMENT (ota));
  g_assert_cmpstr (text, ==, step);

  /* A new one: a [specialK] block after the others, in the file's style. */
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, 3, -5, 70, &error));
  g_assert_no_error (error);
  expected = splice (step,
                     "                ZPos=549;\r\n                }",
                     "                ZPos=549;\r\n                }\r\n"
                     "            [special2]\r\n"
                     "                {\r\n"
                     "                specialwhat=StartPos3;\r\n"
                     "                XPos=-5;\r\n"
                     "                ZPos=70;\r\n"
                     "                }");
  g_free (text);
  text = save_text (TERRAIN_DOCUMENT (ota));
  g_assert_cmpstr (text, ==, expected);

  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 3, &x, &z));
  g_assert_cmpint (x, ==, -5);
  reparsed = parse_ota (text);
  g_assert_true (terrain_ota_file_get_start_position (reparsed, 0, 3, &x, &z));
  g_assert_cmpint (x, ==, -5);
  g_assert_cmpint (z, ==, 70);
  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reparsed));

    /* Negative coordinates are reported. */
    g_assert_cmpuint (issues->len, ==, 1);
  }

  /* Errors: no such schema, player 0. */
  g_assert_false (terrain_ota_file_set_start_position (ota, 4, 1, 0, 0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  g_assert_false (terrain_ota_file_set_start_position (ota, 0, 0, 0, 0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  /* Header values. */
  g_assert_true (terrain_ota_file_set_header_value (ota, "MISSIONNAME", "Other", &error));
  g_assert_cmpstr (terrain_ota_file_get_mission_name (ota), ==, "Other");
}

static void
test_ota_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainOtaFile) ota = terrain_ota_file_new ("Fresh", &error);
  g_autoptr(TerrainOtaFile) reparsed = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *text = NULL;
  gint x, z;

  g_assert_no_error (error);
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, 1, 100, 200, &error));
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, 2, 300, 400, &error));
  g_assert_no_error (error);
  text = save_text (TERRAIN_DOCUMENT (ota));
  g_assert_true (g_str_has_prefix (text, "[GlobalHeader]\r\n\t{\r\n\tmissionname=Fresh;\r\n"));
  g_assert_true (g_str_has_suffix (text, "\t\t\t\t}\r\n\t\t\t}\r\n\t\t}\r\n\t}\r\n"));

  reparsed = parse_ota (text);
  g_assert_cmpstr (terrain_ota_file_get_mission_name (reparsed), ==, "Fresh");
  g_assert_cmpint (terrain_ota_file_get_schema_count (reparsed), ==, 1);
  g_assert_true (terrain_ota_file_get_start_position (reparsed, 0, 2, &x, &z));
  g_assert_cmpint (x, ==, 300);
  g_assert_cmpint (z, ==, 400);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (reparsed));
  g_assert_cmpuint (issues->len, ==, 0);

  g_clear_object (&ota);
  ota = terrain_ota_file_new ("bad;name", &error);
  g_assert_null (ota);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_ota_validate (void)
{
  static const struct
  {
    const char *text;
    const char *finding;
  } cases[] = {
    { "[Other]{}", "no [GlobalHeader]" },
    { "[GlobalHeader]{SCHEMACOUNT=0;}", "no missionname" },
    { "[GlobalHeader]{missionname=a;}", "no integer SCHEMACOUNT" },
    { "[GlobalHeader]{missionname=a;SCHEMACOUNT=2;[Schema 0]{}}", "SCHEMACOUNT is 2" },
    { "[GlobalHeader]{missionname=a;SCHEMACOUNT=2;[Schema 0]{}[Schema 2]{}}", "[Schema 1]" },
    { "[GlobalHeader]{missionname=a;SCHEMACOUNT=1;[Schema 0]{[specials]{[s]{specialwhat=StartPos1;"
      "XPos=x;ZPos=1;}}}}", "no integer XPos" },
    { "[GlobalHeader]{missionname=a;SCHEMACOUNT=1;[Schema 0]{[specials]{[s]{specialwhat=StartPos1;"
      "XPos=1;ZPos=1;}[t]{specialwhat=StartPos1;XPos=2;ZPos=2;}}}}", "more than once" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainOtaFile) ota = parse_ota (cases[i].text);
      g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (ota));
      gboolean found = FALSE;

      for (guint k = 0; k < issues->len; k++)
        found |= strstr (terrain_issue_get_message (g_ptr_array_index (issues, k)),
                         cases[i].finding) != NULL;
      if (!found)
        g_error ("case %u: no finding \"%s\"", i, cases[i].finding);
    }
}

static void
test_ota_document_load (void)
{
  g_autofree char *dir = g_dir_make_tmp ("terrain-tdf-XXXXXX", NULL);
  g_autofree char *ota_path = g_build_filename (dir, "Map.OTA", NULL);
  g_autofree char *tdf_path = g_build_filename (dir, "trees.tdf", NULL);
  g_autoptr(GFile) ota_file = g_file_new_for_path (ota_path);
  g_autoptr(GFile) tdf_file = g_file_new_for_path (tdf_path);
  g_autoptr(TerrainDocument) ota = NULL;
  g_autoptr(TerrainDocument) tdf = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (ota_path, ota_text, -1, NULL));
  g_assert_true (g_file_set_contents (tdf_path, feature_tdf, -1, NULL));

  g_assert_cmpint (terrain_format_detect (NULL, "x.ota"), ==, TERRAIN_FORMAT_OTA);
  g_assert_cmpint (terrain_format_detect (NULL, "X.TDF"), ==, TERRAIN_FORMAT_TDF);
  g_assert_cmpint (terrain_format_from_name ("ota"), ==, TERRAIN_FORMAT_OTA);
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_TDF));

  ota = terrain_document_load (ota_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_OTA_FILE (ota));
  tdf = terrain_document_load (tdf_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_TDF_DOCUMENT (tdf));
  g_assert_false (TERRAIN_IS_OTA_FILE (tdf));

  /* Saving writes atomically and keeps the bytes. */
  g_assert_true (terrain_ota_file_set_start_position (TERRAIN_OTA_FILE (ota), 0, 2, 1, 2, &error));
  g_assert_true (terrain_document_save (ota, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (terrain_document_get_modified (ota));
  {
    g_autofree char *contents = NULL;
    g_autofree char *step = splice (ota_text, "XPos=7923;", "XPos=1;");
    g_autofree char *expected = splice (step, "ZPos=549;", "ZPos=2;");

    g_assert_true (g_file_get_contents (ota_path, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, expected);
  }

  g_remove (ota_path);
  g_remove (tdf_path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Feature catalogue                                                         */

static void
test_catalog_document (void)
{
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(TerrainTdfDocument) document = parse (feature_tdf);
  g_autoptr(GBytes) more = text_bytes ("[tree1]{footprintx=5;}\n[Bad]{footprintx=0;footprintz=x;}\n"
                                       "[Huge]{footprintx=100000;footprintz=7;}\n"
                                       "[Neg]\n{\n\tfootprintz=1;\n\tFootprintX = -2;\n}");
  g_autoptr(GBytes) broken = text_bytes ("[Broken]{x");
  g_autoptr(GError) error = NULL;
  TerrainFeatureDefinition *tree, *rock, *smudge, *bad, *huge;
  guint fx = 0, fz = 0;

  g_assert_cmpuint (terrain_feature_catalog_add_document (catalog, document, "green.tdf"), ==, 3);
  g_assert_cmpuint (terrain_feature_catalog_get_n_features (catalog), ==, 3);

  tree = terrain_feature_catalog_lookup (catalog, "TREE1");
  g_assert_nonnull (tree);
  g_assert_true (terrain_feature_catalog_get_feature (catalog, 0) == tree);
  g_assert_cmpstr (terrain_feature_definition_get_name (tree), ==, "Tree1");
  g_assert_cmpstr (terrain_feature_definition_get_origin (tree), ==, "green.tdf");
  g_assert_cmpstr (terrain_feature_definition_get_world (tree), ==, "greenworld");
  g_assert_cmpstr (terrain_feature_definition_get_description (tree), ==, "Tree");
  g_assert_cmpstr (terrain_feature_definition_get_category (tree), ==, "trees");
  g_assert_cmpstr (terrain_feature_definition_get_object (tree), ==, "tree1");
  g_assert_cmpint (terrain_feature_definition_get_height (tree), ==, 30);
  g_assert_true (terrain_feature_definition_get_blocking (tree));
  g_assert_true (terrain_feature_definition_get_reclaimable (tree));
  g_assert_cmpint (terrain_feature_definition_get_energy (tree), ==, 250);
  g_assert_cmpint (terrain_feature_definition_get_metal (tree), ==, 0);
  g_assert_cmpstr (terrain_feature_definition_get_value (tree, "FOOTPRINTX"), ==, "1");

  rock = terrain_feature_catalog_lookup (catalog, "rock2");
  terrain_feature_definition_get_footprint (rock, &fx, &fz);
  g_assert_cmpuint (fx, ==, 3);
  g_assert_cmpuint (fz, ==, 2);
  g_assert_cmpint (terrain_feature_definition_get_metal (rock), ==, 40);
  g_assert_false (terrain_feature_definition_get_blocking (rock));
  g_assert_true (terrain_feature_definition_get_boolean (rock, "blocking", TRUE));

  /* A missing footprint counts as 1; a sprite's object is its file name. */
  smudge = terrain_feature_catalog_lookup (catalog, "smudge");
  terrain_feature_definition_get_footprint (smudge, &fx, &fz);
  g_assert_cmpuint (fx, ==, 1);
  g_assert_cmpuint (fz, ==, 1);
  g_assert_cmpstr (terrain_feature_definition_get_object (smudge), ==, "smudges");

  /* As a TerrainTntFootprintFunc. */
  g_assert_true (terrain_feature_catalog_footprint_func ("Rock2", &fx, &fz, catalog));
  g_assert_cmpuint (fx, ==, 3);
  g_assert_false (terrain_feature_catalog_footprint_func ("Unknown", &fx, &fz, catalog));
  g_assert_cmpuint (fx, ==, 1);
  g_assert_cmpuint (fz, ==, 1);
  {
    TerrainTntFootprintFunc func = terrain_feature_catalog_footprint_func;

    g_assert_true (func ("tree1", &fx, &fz, catalog));
  }

  /* A repeated name keeps the first definition; bad footprints count as 1. */
  g_assert_true (terrain_feature_catalog_add_bytes (catalog, more, "more.tdf", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_feature_catalog_get_n_features (catalog), ==, 6);
  terrain_feature_definition_get_footprint (tree, &fx, &fz);
  g_assert_cmpuint (fx, ==, 1);
  bad = terrain_feature_catalog_lookup (catalog, "bad");
  terrain_feature_definition_get_footprint (bad, &fx, &fz);
  g_assert_cmpuint (fx, ==, 1);
  g_assert_cmpuint (fz, ==, 1);
  huge = terrain_feature_catalog_lookup (catalog, "huge");
  terrain_feature_definition_get_footprint (huge, &fx, &fz);
  g_assert_cmpuint (fx, ==, 1);
  g_assert_cmpuint (fz, ==, 7);
  /* smudge's missing x and z, tree1 again, Bad x and z, Huge x, Neg x: each
   * footprint finding names the file, the line and the key's byte offset. */
  {
    GPtrArray *issues = terrain_feature_catalog_get_issues (catalog);
    static const struct
    {
      const char *section;
      gint64      offset;
      const char *message;
    } expected[] = {
      { "green.tdf", -2, "feature [Smudge] has no footprintx; a footprint of 1 cell is used" },
      { "green.tdf", -2, "feature [Smudge] has no footprintz; a footprint of 1 cell is used" },
      { "more.tdf", 0, "feature [tree1] is defined again" },
      { "more.tdf", 29, "line 2: feature [Bad]: footprintx=0 is not a footprint" },
      { "more.tdf", 42, "line 2: feature [Bad]: footprintz=x is not a footprint" },
      { "more.tdf", 64, "line 3: feature [Huge]: footprintx=100000 is not a footprint" },
      { "more.tdf", 121, "line 7: feature [Neg]: footprintx=-2 is not a footprint" },
    };

    g_assert_cmpuint (issues->len, ==, G_N_ELEMENTS (expected));
    for (guint i = 0; i < issues->len; i++)
      {
        TerrainIssue *issue = g_ptr_array_index (issues, i);

        g_test_message ("%s @%" G_GINT64_FORMAT ": %s", terrain_issue_get_section (issue),
                        terrain_issue_get_offset (issue), terrain_issue_get_message (issue));
        g_assert_cmpstr (terrain_issue_get_section (issue), ==, expected[i].section);
        if (expected[i].offset != -2)
          g_assert_cmpint (terrain_issue_get_offset (issue), ==, expected[i].offset);
        else
          g_assert_nonnull (strstr (terrain_issue_get_message (issue), "line "));
        g_assert_nonnull (strstr (terrain_issue_get_message (issue), expected[i].message));
        g_assert_cmpint (terrain_issue_get_severity (issue), >=, TERRAIN_SEVERITY_INFO);
      }
  }

  g_assert_false (terrain_feature_catalog_add_bytes (catalog, broken, "broken.tdf", NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_assert_true (g_str_has_prefix (error->message, "broken.tdf: "));
}

static void
test_catalog_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("terrain-features-XXXXXX", NULL);
  g_autofree char *sub = g_build_filename (dir, "corpses", NULL);
  g_autofree char *a = g_build_filename (dir, "green.TDF", NULL);
  g_autofree char *b = g_build_filename (sub, "dead.tdf", NULL);
  g_autofree char *c = g_build_filename (dir, "broken.tdf", NULL);
  g_autofree char *d = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(GError) error = NULL;
  guint fx, fz;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (a, feature_tdf, -1, NULL));
  g_assert_true (g_file_set_contents (b, "[Tree1_dead]{footprintx=2;footprintz=2;}", -1, NULL));
  g_assert_true (g_file_set_contents (c, "[x]{ k", -1, NULL));
  g_assert_true (g_file_set_contents (d, "[NotAFeature]{}", -1, NULL));

  g_assert_true (terrain_feature_catalog_load_folder (catalog, folder, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_feature_catalog_get_n_features (catalog), ==, 4);
  g_assert_true (terrain_feature_catalog_get_footprint (catalog, "TREE1_DEAD", &fx, &fz));
  g_assert_cmpuint (fx, ==, 2);
  g_assert_null (terrain_feature_catalog_lookup (catalog, "NotAFeature"));
  /* The broken file is skipped and reported (with Smudge's two missing
   * footprint keys). */
  {
    GPtrArray *issues = terrain_feature_catalog_get_issues (catalog);
    guint skipped = 0;

    g_assert_cmpuint (issues->len, ==, 3);
    for (guint i = 0; i < issues->len; i++)
      if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), "skipped") != NULL)
        skipped++;
    g_assert_cmpuint (skipped, ==, 1);
  }

  {
    g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/terrain/features");

    g_assert_false (terrain_feature_catalog_load_folder (catalog, missing, NULL, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  }

  g_remove (a);
  g_remove (b);
  g_remove (c);
  g_remove (d);
  g_rmdir (sub);
  g_rmdir (dir);
}

static void
test_catalog_archive (void)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) features = text_bytes (feature_tdf);
  g_autoptr(GBytes) other = text_bytes ("[Elsewhere]{footprintx=4;}");
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(GError) error = NULL;
  guint fx, fz;

  g_assert_true (terrain_hpi_writer_add_file (writer, "features/green/trees.tdf", features,
                                              TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "units/other.tdf", other,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  terrain_hpi_writer_set_key (writer, 0x5A);
  archive_bytes = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  archive = terrain_hpi_archive_new_from_bytes (archive_bytes, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (terrain_feature_catalog_load_archive (catalog, archive, "FEATURES/", NULL,
                                                       &error));
  g_assert_cmpuint (terrain_feature_catalog_get_n_features (catalog), ==, 3);
  g_assert_null (terrain_feature_catalog_lookup (catalog, "Elsewhere"));
  g_assert_true (terrain_feature_catalog_get_footprint (catalog, "rock2", &fx, &fz));
  g_assert_cmpuint (fz, ==, 2);
  g_assert_true (g_str_has_suffix (terrain_feature_definition_get_origin (
                                     terrain_feature_catalog_lookup (catalog, "rock2")),
                                   ":features/green/trees.tdf"));

  g_assert_true (terrain_feature_catalog_load_archive (catalog, archive, NULL, NULL, &error));
  g_assert_true (terrain_feature_catalog_get_footprint (catalog, "elsewhere", &fx, &fz));
  g_assert_cmpuint (fx, ==, 4);
}

/* ------------------------------------------------------------------------ */
/* Corpus                                                                    */

static void
test_corpus_ota (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree TerrainOtaStartPosition *positions = NULL;
  TerrainOtaFile *ota;
  guint n = 0;
  gint x, z;
  gsize size, differing = 0;
  const guint8 *a, *b;

  document = terrain_document_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_OTA_FILE (document));
  ota = TERRAIN_OTA_FILE (document);
  original = g_bytes_ref (terrain_document_get_source_bytes (document));

  written = terrain_document_save_to_bytes (document, &error);
  g_assert_true (g_bytes_equal (original, written));
  g_clear_pointer (&written, g_bytes_unref);

  /* Typed fields. */
  g_assert_nonnull (terrain_ota_file_get_mission_name (ota));
  g_assert_cmpint (terrain_ota_file_get_schema_count (ota), >=, 1);
  g_assert_cmpuint (terrain_ota_file_get_n_schemas (ota), ==,
                    (guint) terrain_ota_file_get_schema_count (ota));
  g_assert_nonnull (terrain_ota_file_get_schema_type (ota, 0));
  positions = terrain_ota_file_get_start_positions (ota, 0, &n);
  g_assert_cmpuint (n, >=, 2);
  g_test_message ("%s: \"%s\", %u schemas, %u start positions in schema 0",
                  path, terrain_ota_file_get_mission_name (ota),
                  terrain_ota_file_get_n_schemas (ota), n);

  /* Moving start position 1 changes only its digits... */
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, positions[0].player,
                                                      positions[0].x + 1, positions[0].z,
                                                      &error));
  g_assert_no_error (error);
  written = terrain_document_save_to_bytes (document, &error);
  a = g_bytes_get_data (original, &size);
  b = g_bytes_get_data (written, NULL);
  if (g_bytes_get_size (written) == size)
    {
      for (gsize i = 0; i < size; i++)
        differing += a[i] != b[i];
      g_assert_cmpuint (differing, >=, 1);
      g_assert_cmpuint (differing, <=, 6);
    }
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, positions[0].player, &x, &z));
  g_assert_cmpint (x, ==, positions[0].x + 1);

  /* ... and moving it back restores the file. */
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, positions[0].player,
                                                      positions[0].x, positions[0].z, &error));
  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_document_save_to_bytes (document, &error);
  g_assert_true (g_bytes_equal (original, written));
}

static void
test_corpus_missing (void)
{
  g_test_skip ("corpus OTAs not found (set TERRAIN_CORPUS_DIR)");
}

static void
add_corpus_tests (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");
  static const char * const folders[] = { "ta/ota", "ta/maps" };
  guint added = 0;

  for (guint f = 0; dir != NULL && f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *folder = g_build_filename (dir, folders[f], NULL);
      g_autoptr(GDir) handle = g_dir_open (folder, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (handle == NULL)
        continue;
      while ((name = g_dir_read_name (handle)) != NULL)
        if (g_str_has_suffix (name, ".ota"))
          g_ptr_array_add (names, g_strdup (name));
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        {
          const char *base = g_ptr_array_index (names, i);
          g_autofree char *test = g_strdup_printf ("/Terrain/Tdf/corpus/%s/%s", folders[f], base);

          g_strdelimit (test + strlen ("/Terrain/Tdf/corpus/"), " ", '_');
          g_test_add_data_func_full (test, g_build_filename (folder, base, NULL),
                                     test_corpus_ota, g_free);
          added++;
        }
    }
  if (added == 0)
    g_test_add_func ("/Terrain/Tdf/corpus/missing", test_corpus_missing);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Tdf/parse/features", test_parse_features);
  g_test_add_func ("/Terrain/Tdf/parse/tolerated", test_parse_tolerated);
  g_test_add_func ("/Terrain/Tdf/parse/stray-statement", test_parse_stray_statement);
  g_test_add_func ("/Terrain/Tdf/parse/errors", test_parse_errors);
  g_test_add_func ("/Terrain/Tdf/parse/depth", test_parse_depth);
  g_test_add_func ("/Terrain/Tdf/parse/truncations", test_parse_truncations);
  g_test_add_func ("/Terrain/Tdf/edit/value", test_edit_value);
  g_test_add_func ("/Terrain/Tdf/edit/invalid", test_edit_invalid);
  g_test_add_func ("/Terrain/Tdf/edit/add", test_edit_add);
  g_test_add_func ("/Terrain/Tdf/edit/remove", test_edit_remove);
  g_test_add_func ("/Terrain/Tdf/new", test_new_document);
  g_test_add_func ("/Terrain/Tdf/describe", test_describe);
  g_test_add_func ("/Terrain/Tdf/validate", test_validate);
  g_test_add_func ("/Terrain/Tdf/validate-without-tree", test_validate_without_tree);
  g_test_add_func ("/Terrain/Ota/typed", test_ota_typed);
  g_test_add_func ("/Terrain/Ota/edit-start", test_ota_edit_start);
  g_test_add_func ("/Terrain/Ota/new", test_ota_new);
  g_test_add_func ("/Terrain/Ota/validate", test_ota_validate);
  g_test_add_func ("/Terrain/Ota/document-load", test_ota_document_load);
  g_test_add_func ("/Terrain/FeatureCatalog/document", test_catalog_document);
  g_test_add_func ("/Terrain/FeatureCatalog/folder", test_catalog_folder);
  g_test_add_func ("/Terrain/FeatureCatalog/archive", test_catalog_archive);
  add_corpus_tests ();

  return g_test_run ();
}
