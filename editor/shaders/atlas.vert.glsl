/* Atlas geometry chunks: vertices in map space as the file's author made
 * them, each with its morph offset towards the parent level's surface
 * (atlas-chu-tqt.md §3); u_morph blends towards it. Texture coordinates are
 * terrain-wide: u_tile maps them into the tile drawn, whose square
 * (terrain_quadtree_texture_tile_rect(), §4) starts at u_tile.xy and has
 * the side 1 / u_tile.z. */
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_morph;
layout(location = 2) in vec4 a_tex;
layout(location = 3) in vec3 a_normal;

uniform mat4 u_mvp;
uniform float u_morph;
uniform vec3 u_tile;
uniform vec2 u_height_range;

out vec2 v_st;
out vec3 v_normal;
out float v_level;

void
main ()
{
  vec3 p = a_position + u_morph * a_morph;
  vec2 tc = a_tex.xy + u_morph * a_tex.zw;

  v_st = (tc - u_tile.xy) * u_tile.z;
  v_normal = a_normal;
  v_level = (p.y - u_height_range.x) * u_height_range.y;
  gl_Position = u_mvp * vec4 (p, 1.0);
}
