/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base URL; '/api' (same origin) when unset. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
