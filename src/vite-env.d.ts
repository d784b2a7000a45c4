/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base URL; '/api' (same origin) when unset. */
  readonly VITE_API_BASE?: string;
  /** '1': the debug scene switcher (/debug) is on in this build; else only the server's DEBUG_SCENES turns it on. */
  readonly VITE_DEBUG_SCENES?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
