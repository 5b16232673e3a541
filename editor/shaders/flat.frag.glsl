in float v_shade;

uniform vec4 u_color;

out vec4 o_color;

void
main ()
{
  o_color = vec4 (u_color.rgb * v_shade, u_color.a);
}
