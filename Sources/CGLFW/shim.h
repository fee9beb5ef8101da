#define GLFW_INCLUDE_NONE  /* GL comes from libepoxy, never from GLFW */
#include <GLFW/glfw3.h>
