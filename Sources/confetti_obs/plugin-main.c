/* plugin-main.c: the Confetti plugin of OBS Studio: one input source, "Confetti"
 * (confetti-source.c), over libconfetti.
 *
 * Built by .ci/package into usr/lib/<multiarch>/obs-plugins/confetti.so, its strings into
 * usr/share/obs/obs-plugins/confetti/locale/ (OBS names a module's data folder after its file).
 */
#include <confetti.h>
#include <obs-module.h>

OBS_DECLARE_MODULE()
OBS_MODULE_USE_DEFAULT_LOCALE("confetti", "en-US")

MODULE_EXPORT const char *obs_module_description(void) {
  return "Physics-based confetti drawn by the GPU, fired by a button, a hotkey or obs-websocket";
}

extern struct obs_source_info confetti_source_info;

bool obs_module_load(void) {
  obs_register_source(&confetti_source_info);
  blog(LOG_INFO, "[confetti] loaded, libconfetti %s", confetti_version());
  return true;
}
