/* Terrain colour: TNT tiles looked up through the tile map, the tile atlas
 * and the palette near the camera, a pre-averaged overview texture far away
 * (mode 0); a plain RGBA texture (mode 1); a height ramp (mode 2). Lit from
 * the interpolated normal, with the brush ring drawn on top. */
in vec2 v_map;
in vec3 v_normal;
in float v_level;

uniform int u_mode;
uniform vec2 u_map_size;
uniform sampler2D u_overview;
uniform sampler2D u_atlas;
uniform sampler2D u_palette;
uniform usampler2D u_tile_map;
uniform int u_atlas_columns;
uniform int u_atlas_shift;
uniform int u_n_tiles;
uniform vec3 u_light;
uniform vec4 u_brush;
uniform float u_brush_visible;

out vec4 o_color;

vec3
tile_color (vec2 map)
{
  ivec2 size = ivec2 (u_map_size * 16.0);
  ivec2 px = clamp (ivec2 (floor (map * 16.0)), ivec2 (0), size - 1);
  /* Shifts and masks: llvmpipe scalarises integer division. */
  ivec2 tile = px >> 5;
  int index = min (int (texelFetch (u_tile_map, tile, 0).r), u_n_tiles - 1);
  ivec2 a = (ivec2 (index & (u_atlas_columns - 1), index >> u_atlas_shift) << 5) + (px & 31);
  int entry = int (texelFetch (u_atlas, a, 0).r * 255.0 + 0.5);

  return texelFetch (u_palette, ivec2 (entry, 0), 0).rgb;
}

void
main ()
{
  vec2 uv = v_map / u_map_size;
  vec2 px = v_map * 16.0;
  float footprint = max (length (dFdx (px)), length (dFdy (px)));
  float d = distance (v_map, u_brush.xy);
  float w = max (fwidth (d), 1e-4);
  vec3 n = normalize (v_normal);
  vec3 base;

  if (u_mode == 0)
    {
      vec3 over = texture (u_overview, uv).rgb;
      float blend = clamp (log2 (max (footprint, 1e-6)) - 1.0, 0.0, 1.0);

      /* An if, not a ?: select, so that distant fragments skip the
       * three dependent fetches of the tile lookup. */
      base = over;
      if (blend < 1.0)
        base = mix (tile_color (v_map), over, blend);
    }
  else if (u_mode == 1)
    base = texture (u_overview, uv).rgb;
  else
    {
      float t = clamp (v_level, 0.0, 1.0);
      base = mix (vec3 (0.35, 0.55, 0.25), vec3 (0.85, 0.8, 0.7), t);
    }

  float diffuse = max (dot (n, normalize (u_light)), 0.0);
  vec3 color = base * (0.4 + 0.75 * diffuse);
  float ring = 1.0 - smoothstep (1.0, 2.0, abs (d - u_brush.z) / w);
  color = mix (color, vec3 (1.0, 0.9, 0.2), ring * u_brush_visible);
  o_color = vec4 (color, 1.0);
}
