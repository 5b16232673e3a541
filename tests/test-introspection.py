#!/usr/bin/env python3
# test-introspection.py: libterrain through its Terrain-0 typelib (PyGObject).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run by meson with GI_TYPELIB_PATH and LD_LIBRARY_PATH pointing at the build;
# argv: SAMPLE.tnt EXAMPLE-SCRIPT. Prints TAP.

import os
import subprocess
import sys
import tempfile

import gi

gi.require_version("Terrain", "0")
from gi.repository import Gio, GLib, Terrain  # noqa: E402

results = []


def case(name):
    def wrap(func):
        results.append((name, func))
        return func
    return wrap


def load(path):
    return Terrain.Document.load(Gio.File.new_for_path(path), None, None)


@case("/Terrain/Introspection/version")
def _():
    assert Terrain.MAJOR_VERSION == 0
    assert Terrain.VERSION_S.count(".") == 2


@case("/Terrain/Introspection/new-map-sea-level")
def _():
    tnt = Terrain.TntMap.new(32, 16)
    assert isinstance(tnt, Terrain.Document)
    assert (tnt.get_width(), tnt.get_height()) == (32, 16)
    assert tnt.get_sea_level() == 0
    notified = []
    tnt.connect("notify::sea-level", lambda obj, pspec: notified.append(obj.get_sea_level()))
    tnt.set_sea_level(37)
    assert notified == [37], notified
    assert tnt.props.sea_level == 37
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "new.tnt")
        tnt.save(Gio.File.new_for_path(path), None)
        again = load(path)
        assert isinstance(again, Terrain.TntMap)
        assert again.get_format() == Terrain.Format.TNT
        assert again.get_sea_level() == 37
        assert (again.get_width(), again.get_height()) == (32, 16)


@case("/Terrain/Introspection/sample-sea-level")
def _():
    sample = load(SAMPLE)
    old = sample.get_sea_level()
    # Unedited, the writer gives back the very bytes it read.
    source = sample.get_source_bytes().get_data()
    assert sample.save_to_bytes().get_data() == source
    new = (old + 17) % 256
    sample.set_sea_level(new)
    assert sample.get_modified()
    written = sample.save_to_bytes().get_data()
    # Only the SeaLevel header word (offset 0x24) changes.
    diff = [i for i in range(len(source)) if source[i] != written[i]]
    assert len(written) == len(source)
    assert diff and all(0x24 <= i < 0x28 for i in diff), diff
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sample.tnt")
        sample.save(Gio.File.new_for_path(path), None)
        assert load(path).get_sea_level() == new


@case("/Terrain/Introspection/sea-level-rule")
def _():
    # One rule (Terrain.TntMap.check_sea_level) and one message, whichever
    # way the level is set.
    assert Terrain.TNT_MAX_SEA_LEVEL == 255
    assert Terrain.TntMap.check_sea_level(255)
    messages = []
    tnt = Terrain.TntMap.new(16, 16)
    tnt.set_sea_level(75)
    try:
        Terrain.TntMap.check_sea_level(300)
    except GLib.Error as error:
        messages.append(error.message)
    for setter in (lambda: tnt.set_sea_level(300),
                   lambda: Terrain.CommandStack.new(tnt).execute(
                       Terrain.TntEdit.new_sea_level(tnt, 300))):
        try:
            setter()
        except GLib.Error as error:
            assert error.matches(Terrain.Error.quark(), Terrain.Error.OUT_OF_RANGE)
            messages.append(error.message)
        else:
            raise AssertionError("a sea level of 300 was taken")
    assert len(messages) == 3 and len(set(messages)) == 1, messages
    assert "sea level 300 is above the maximum 255" in messages[0], messages
    assert tnt.get_sea_level() == 75
    # The property cannot raise: it warns with the same message and keeps
    # the level (in a child, as warnings are fatal here).
    code = ("import gi; gi.require_version('Terrain', '0');"
            "from gi.repository import Terrain;"
            "t = Terrain.TntMap.new(16, 16); t.set_sea_level(75);"
            "t.props.sea_level = 300; print(t.props.sea_level)")
    env = dict(os.environ)
    env.pop("G_DEBUG", None)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "75", run.stdout
    assert messages[0] in run.stderr, run.stderr


@case("/Terrain/Introspection/minimap")
def _():
    # 64x32 cells: PlayRight 992, PlayBottom 384 pixels, so the 252x252
    # bitmap's used part is 252x97 (384 * 252 / 992, truncated).
    tnt = Terrain.TntMap.new(64, 32)
    pixels, width, height = tnt.get_minimap()
    assert (width, height) == (252, 252)
    assert pixels.get_size() == 252 * 252
    assert tnt.get_minimap_used_size() == (252, 97)
    data = pixels.get_data()
    assert set(data[:252 * 97]) == {0} and set(data[252 * 97:]) == {0x64}
    # A tile of index 200 on the left half of the tile map.
    bright = tnt.add_tile(bytes([200]) * 1024)
    assert bright == 1
    for row in range(tnt.get_tile_rows()):
        for column in range(tnt.get_tile_columns() // 2):
            tnt.set_tile_index(column, row, bright)
    grey = bytes(v for i in range(256) for v in (i, i, i, 0))
    palette = Terrain.Palette.new_from_bytes(GLib.Bytes.new(grey))
    computed = tnt.compute_minimap(palette, 126, 64)
    assert computed.get_size() == 126 * 64
    used_w, used_h = tnt.get_minimap_crop(126, 64)
    assert (used_w, used_h) == (126, 64 * 384 // 992)
    rows = [computed.get_data()[y * 126:(y + 1) * 126] for y in range(64)]
    assert rows[0][0] == 200 and rows[0][used_w - 1] == 0, rows[0]
    assert all(set(row) == {0x64} for row in rows[used_h:])
    # Stored back, it reads back as the same bytes.
    tnt.set_minimap(126, 64, computed.get_data())
    again, width, height = tnt.get_minimap()
    assert (width, height) == (126, 64)
    assert again.get_data() == computed.get_data()
    tnt.update_minimap(palette)
    assert tnt.get_minimap()[0].get_data() == tnt.compute_minimap(palette, 126, 64).get_data()


@case("/Terrain/Introspection/occupancy")
def _():
    tnt = Terrain.TntMap.new(8, 6)
    tree = tnt.add_feature_name("Tree1")
    rock = tnt.add_feature_name("Rock2")
    tnt.set_cell_feature(1, 1, tree)   # 2x2: (1,1) to (2,2)
    tnt.set_cell_feature(2, 2, rock)   # 1x1 on the tree's fringe
    tnt.set_cell_feature(7, 5, tree)   # runs off the south-east corner
    tnt.set_cell_feature(5, 0, Terrain.TNT_FEATURE_VOID)
    asked = []

    def footprint(name, *data):
        asked.append(name)
        return (True, 2, 2) if name.lower() == "tree1" else (False, 0, 0)

    occupancy, owners, issues = tnt.build_occupancy(footprint, None)
    assert sorted(set(asked)) == ["Rock2", "Tree1"], asked
    assert len(occupancy) == len(owners) == 8 * 6

    def at(grid, x, y):
        return grid[y * 8 + x]

    none, fringe = Terrain.TNT_FEATURE_NONE, Terrain.TNT_FEATURE_FRINGE
    assert at(occupancy, 1, 1) == tree
    assert [at(occupancy, x, y) for x, y in ((2, 1), (1, 2), (2, 2))] == [fringe] * 3
    assert at(occupancy, 7, 5) == tree
    assert at(occupancy, 5, 0) == Terrain.TNT_FEATURE_VOID
    assert at(occupancy, 0, 0) == none and at(occupancy, 3, 3) == none
    assert [at(owners, x, y) for x, y in ((1, 1), (2, 1), (1, 2), (2, 2), (7, 5))] == [tree] * 5
    assert at(owners, 5, 0) == none and at(owners, 0, 0) == none
    assert sum(1 for word in occupancy if word != none) == 6
    # The rock overlaps the tree (the tree keeps the cell); the corner tree
    # is clipped.
    found = sorted((issue.get_position()[1:], issue.get_message()) for issue in issues)
    assert [position for position, message in found] == [(2, 2), (7, 5)], found
    assert "overlaps 1 occupied cell" in found[0][1] and "clipped" in found[1][1], found
    assert all(issue.get_severity() == Terrain.Severity.WARNING for issue in issues)
    # Without a lookup every feature is 1x1.
    occupancy, owners, issues = tnt.build_occupancy(None, None)
    assert at(occupancy, 2, 1) == none and at(occupancy, 2, 2) == rock and not issues


@case("/Terrain/Introspection/brush-evaluate")
def _():
    # The heights a dab would leave, without touching the map.
    tnt = Terrain.TntMap.new(16, 16)
    brush = Terrain.TntBrush.new(Terrain.TntBrushMode.SET, 2.0, 8.0,
                                 Terrain.TntFalloff.CONSTANT, 200)
    assert brush.check()
    heights, x, y, width, height = brush.evaluate(tnt, 3, 3)
    assert (x, y, width, height) == (1, 1, 5, 5), (x, y, width, height)
    data = heights.get_data()
    assert len(data) == width * height
    assert data[2 * width + 2] == 200          # the centre cell, (3, 3)
    assert data[0] == 0                        # a corner, outside the radius
    assert set(data) == {0, 200}
    assert tnt.get_cell_height(3, 3) == 0
    # A dab entirely off the map: no heights, an empty region.
    assert brush.evaluate(tnt, -50, -50) == (None, 0, 0, 0, 0)


@case("/Terrain/Introspection/quantize-rgba")
def _():
    grey = bytes(v for i in range(256) for v in (i, i, i, 0))
    palette = Terrain.Palette.new_from_bytes(GLib.Bytes.new(grey))
    # Two rows of two pixels, 12 bytes apart (4 bytes of padding a row).
    rgba = bytes([10, 10, 10, 255, 200, 200, 200, 255, 0, 0, 0, 0,
                  30, 30, 30, 255, 31, 29, 30, 255])
    indices = palette.quantize_rgba(GLib.Bytes.new(rgba), 2, 2, 12, Terrain.Dither.NONE)
    assert indices.get_data() == bytes([10, 200, 30, 30]), indices.get_data()
    try:
        palette.quantize_rgba(GLib.Bytes.new(rgba[:16]), 2, 2, 12, Terrain.Dither.NONE)
    except GLib.Error as error:
        assert error.matches(Terrain.Error.quark(), Terrain.Error.INVALID_VALUE)
        assert "need 20 bytes" in error.message, error.message
    else:
        raise AssertionError("16 bytes taken for 20")


@case("/Terrain/Introspection/collision-tree")
def _():
    geometry = Terrain.AtlasGeometry.new()
    assert not geometry.get_collision_tree()
    assert geometry.generate_collision(2)
    tree = geometry.get_collision_tree()
    # nodeCount(2) = 1 + 4 nodes, a minimum and a maximum Z each; with no
    # triangles every bin keeps TGEA's inverted range.
    assert len(tree) == 2 * 5, tree
    assert all(low > high for low, high in zip(tree[0::2], tree[1::2])), tree
    # The tree goes back in through the same name, counted in floats.
    offsets = geometry.get_collision_offsets()
    indices = geometry.get_collision_indices()
    other = Terrain.AtlasGeometry.new()
    assert other.set_collision(2, tree, offsets, indices)
    assert other.get_collision_depth() == 2
    assert list(other.get_collision_tree()) == list(tree)
    try:
        other.set_collision(2, tree[:-1], offsets, indices)
    except GLib.Error as error:
        assert "tree values" in error.message, error.message
    else:
        raise AssertionError("an odd tree length taken")


@case("/Terrain/Introspection/floor-height-region")
def _():
    grid = Terrain.FloorHeightData.new(8, 8, 1.0)
    words = grid.get_region(2, 1, 5, 3)
    assert len(words) == 5 * 3
    assert set(words) == {0}, words


@case("/Terrain/Introspection/issue-new")
def _():
    # The editor's finding for a file it cannot read again.
    issue = Terrain.Issue.new(Terrain.Severity.ERROR, None, -1, -1, "100% gone")
    assert issue.get_severity() == Terrain.Severity.ERROR
    assert issue.get_message() == "100% gone"
    assert (issue.get_offset(), issue.get_record()) == (-1, -1)
    assert issue.get_section() is None


@case("/Terrain/Introspection/errors")
def _():
    try:
        Terrain.Document.load_bytes(GLib.Bytes.new(b"not a map"), "x.tnt",
                                    Terrain.Format.TNT, None)
    except GLib.Error as error:
        assert error.domain == GLib.quark_to_string(Terrain.Error.quark())
    else:
        raise AssertionError("a 9-byte TNT loaded")


@case("/Terrain/Introspection/new-from-bytes")
def _():
    source = load(SAMPLE).get_source_bytes()
    # The one constructor behind every format's new_from_bytes.
    tnt = Terrain.Document.new_from_bytes(Terrain.TntMap, source, None)
    assert isinstance(tnt, Terrain.TntMap)
    assert tnt.get_format() == Terrain.Format.TNT
    assert tnt.save_to_bytes().get_data() == source.get_data()
    assert Terrain.TntMap.new_from_bytes(source, None).get_width() == tnt.get_width()
    try:
        Terrain.Document.new_from_bytes(Terrain.ChuFile, source, None)
    except GLib.Error as error:
        assert error.domain == GLib.quark_to_string(Terrain.Error.quark())
        assert "CHU" in error.message, error.message
    else:
        raise AssertionError("a TNT map read as a CHU tree")


@case("/Terrain/Introspection/validate-describe")
def _():
    sample = load(SAMPLE)
    issues = sample.validate()
    assert all(isinstance(issue, Terrain.Issue) for issue in issues)
    description = sample.describe()
    assert description.get_object().get_string_member("format") == "tnt"


@case("/Terrain/Introspection/render-options")
def _():
    sample = load(SAMPLE)
    # Without a colour table a TNT map cannot draw its palette indices.
    try:
        sample.render_image(Terrain.RenderOptions.new())
    except GLib.Error as error:
        assert "palette" in error.message, error.message
    else:
        raise AssertionError("a TNT map rendered without colours")
    grey = bytes(v for i in range(256) for v in (i, i, i, 255))
    options = Terrain.RenderOptions.new()
    options.set_colors(GLib.Bytes.new(grey))
    assert options.props.colors.get_data() == grey
    image = sample.render_image(options)
    assert image.get_width() == sample.get_width() // 2 * 32
    try:
        options.set_colors(GLib.Bytes.new(b"\0" * 768))
    except GLib.Error as error:
        assert "1024 bytes" in error.message, error.message
    else:
        raise AssertionError("a 768-byte colour table was taken")
    assert options.get_colors().get_size() == 1024


@case("/Terrain/Introspection/example-script")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.tnt")
        run = subprocess.run([sys.executable, EXAMPLE, SAMPLE, "42", out],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert load(out).get_sea_level() == 42
        made = os.path.join(tmp, "made.tnt")
        run = subprocess.run([sys.executable, EXAMPLE, "--new", "16x16", "9", made],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert load(made).get_sea_level() == 9
        # The library's error, as the script prints it.
        run = subprocess.run([sys.executable, EXAMPLE, SAMPLE, "300", out],
                             capture_output=True, text=True)
        assert run.returncode == 2, run.stderr
        assert "above the maximum 255" in run.stderr, run.stderr
        assert load(out).get_sea_level() == 42


SAMPLE, EXAMPLE = sys.argv[1], sys.argv[2]
print(f"1..{len(results)}")
failed = 0
for number, (name, func) in enumerate(results, 1):
    try:
        func()
        print(f"ok {number} {name}")
    except Exception as error:  # noqa: BLE001 - every failure is reported
        failed += 1
        print(f"not ok {number} {name}")
        for line in repr(error).splitlines():
            print(f"# {line}")
sys.exit(1 if failed else 0)
