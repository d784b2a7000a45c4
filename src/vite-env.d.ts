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

declare module 'virtual:art-variants' {
  /** Raster copies of case and item art made at build time: art URL → srcset by format (empty in dev). */
  const variants: Record<string, { avif: string; webp: string }>;
  export default variants;
}
