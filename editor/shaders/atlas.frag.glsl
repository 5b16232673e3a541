/* Atlas terrain: the chunk's texture tile, or a height ramp without one,
 * lit from the chunk's normals; u_tint (colour, amount) marks the chunk's
 * level when levels are shown. */
in vec2 v_st;
in vec3 v_normal;
in float v_level;

uniform sampler2D u_texture;
uniform int u_textured;
uniform vec3 u_light;
uniform vec4 u_tint;

out vec4 o_color;

void
main ()
{
  vec3 n = normalize (v_normal);
  vec3 base;

  if (u_textured != 0)
    base = texture (u_texture, v_st).rgb;
  else
    base = mix (vec3 (0.35, 0.55, 0.25), vec3 (0.85, 0.8, 0.7), clamp (v_level, 0.0, 1.0));
  base = mix (base, u_tint.rgb, u_tint.a);

  float diffuse = max (dot (n, normalize (u_light)), 0.0);
  o_color = vec4 (base * (0.4 + 0.75 * diffuse), 1.0);
}
