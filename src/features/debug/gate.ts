/**
 * Whether this build has the debug scene switcher on by itself: in development, and in production builds
 * made with VITE_DEBUG_SCENES=1 (read at build time). Otherwise the server decides at run time: GET
 * /api/config answers debugScenes (its DEBUG_SCENES setting).
 */
export const DEBUG_SCENES_BUILT_IN: boolean =
  import.meta.env.DEV || import.meta.env.VITE_DEBUG_SCENES === '1';

/** The switcher is on: built in, or the server's config says so. */
export function debugScenesEnabled(serverConfig: { debugScenes?: boolean } | undefined): boolean {
  return DEBUG_SCENES_BUILT_IN || serverConfig?.debugScenes === true;
}
