/* Water plane and feature markers: positions in map space, a shade factor
 * in w. */
layout(location = 0) in vec4 a_position;

uniform mat4 u_mvp;

out float v_shade;

void
main ()
{
  v_shade = a_position.w;
  gl_Position = u_mvp * vec4 (a_position.xyz, 1.0);
}
