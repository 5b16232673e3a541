/* Heightfield patch: one shared grid of (i, j, skirt) vertices placed per
 * chunk by u_origin and u_step; heights come from a float texture so LOD
 * levels and chunks share the same buffers. */
layout(location = 0) in vec3 a_grid;

uniform mat4 u_mvp;
uniform vec2 u_origin;
uniform float u_step;
uniform sampler2D u_heights;
uniform ivec2 u_grid_size;
uniform float u_vscale;
uniform float u_offset;
uniform float u_skirt;
uniform float u_height_norm;

out vec2 v_map;
out vec3 v_normal;
out float v_level;

float
height_at (ivec2 p)
{
  p = clamp (p, ivec2 (0), u_grid_size - 1);
  return texelFetch (u_heights, p, 0).r * u_vscale;
}

void
main ()
{
  ivec2 p = min (ivec2 (u_origin + a_grid.xy * u_step), u_grid_size - 1);
  float y = height_at (p);
  float dx = height_at (p + ivec2 (1, 0)) - height_at (p - ivec2 (1, 0));
  float dz = height_at (p + ivec2 (0, 1)) - height_at (p - ivec2 (0, 1));
  vec2 m = vec2 (p) + u_offset;

  v_normal = normalize (vec3 (-dx, 2.0, -dz));
  v_map = m;
  v_level = y * u_height_norm;
  gl_Position = u_mvp * vec4 (m.x, y - a_grid.z * u_skirt, m.y, 1.0);
}
