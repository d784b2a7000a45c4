import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { artImages } from './scripts/art-images.ts';
import { buildCatalogue, DEFAULT_RTP } from './server/games/catalogue.ts';
import { giftMarkSvg } from './src/features/launch/gift-mark.ts';

// The API server (npm run server) listens on API_PORT; `npm run dev` proxies the API and sockets to it.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

/** How many case pictures the first screen shows before any scrolling (two rows of two). */
const FIRST_SCREEN_CASES = 4;

/**
 * The entry's stylesheet written into index.html instead of linked: the first screen's CSS is small, and a
 * linked one holds the first paint back by a round trip on a slow connection (render-blocking).
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'giftcases-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)"[^>]*>/g,
          (tag, file: string) => {
            const asset = bundle[file];
            const css = asset?.type === 'asset' ? String(asset.source) : null;
            return css && !css.includes('</style') ? `<style>${css}</style>` : tag;
          },
        );
      },
    },
  };
}

/**
 * The interface languages' chunks preloaded from index.html: the app renders once its language is in (and
 * fetches the fallback language at once too), so waiting for the entry script to ask for them would put
 * a round trip between the script and the first screen on a slow connection.
 */
function preloadLanguages(): Plugin {
  return {
    name: 'giftcases-preload-languages',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const links = Object.values(bundle)
          .filter(
            (chunk) =>
              chunk.type === 'chunk' && /\/src\/i18n\/[a-z]+\.json$/.test(chunk.facadeModuleId ?? ''),
          )
          .map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`);
        return html.replace('</head>', `${links.join('')}</head>`);
      },
    },
  };
}

/** index.html's loading screen gets the app's gift mark, from the one definition the app draws it with. */
function launchMark(): Plugin {
  return {
    name: 'giftcases-launch-mark',
    transformIndexHtml: (html) => html.replace('<!-- gift-mark -->', giftMarkSvg()),
  };
}

/**
 * The page icon written into index.html as a data: URL instead of linked. In a browser, a page's first sound
 * (the first spin's first tick) makes it fetch the icon again, right as the motion starts: a linked icon is
 * a fetch and a decode on the page's main thread then, an inline one only the decode (and the first screen
 * makes one request fewer). The PNG is 2.4 KB. Telegram's webviews show no page icon at all.
 */
function inlinePageIcon(): Plugin {
  const link = /<link rel="icon" type="image\/png" sizes="48x48" href="\/assets\/icon-48\.png" \/>/;
  return {
    name: 'giftcases-inline-page-icon',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!link.test(html)) throw new Error('index.html has no page icon link to inline');
        const png = readFileSync(join(import.meta.dirname, 'assets', 'icon-48.png')).toString('base64');
        return html.replace(
          link,
          `<link rel="icon" type="image/png" sizes="48x48" href="data:image/png;base64,${png}" />`,
        );
      },
    },
  };
}

/**
 * app.html: index.html without the first screen's picture preloads, served for every page but the case list
 * (/profile, /inventory, a case...). Those pictures are the list's; preloaded on another page they would be
 * fetched for nothing and the browser would warn that they were preloaded but not used. Runs after the page
 * is final (its CSS inlined, its links injected) and before the build's files are compressed.
 */
function pagesWithoutListPreloads(): Plugin {
  return {
    name: 'giftcases-pages-without-list-preloads',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      const without = html.replace(/<link rel="preload" as="image"[^>]*>\s*/g, '');
      if (without === html) this.warn('index.html has no picture preloads to leave out of app.html');
      this.emitFile({ type: 'asset', fileName: 'app.html', source: without });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    inlineEntryCss(),
    inlinePageIcon(),
    launchMark(),
    preloadLanguages(),
    pagesWithoutListPreloads(),
    artImages({
      assetsDir: join(import.meta.dirname, 'assets'),
      // the list's first cases, in catalogue order: the seed decides it
      preload: () =>
        buildCatalogue(DEFAULT_RTP)
          .filter((c) => c.isActive && !c.isLocked)
          .sort((a, b) => a.position - b.position)
          .slice(0, FIRST_SCREEN_CASES)
          .map((c) => c.imageUrl),
    }),
    // every text file of the build also as .br and .gz, made once here at the strongest settings; the
    // server sends the one the browser accepts (content negotiation), never compressing per request
    compression({
      include: /\.(html|css|js|mjs|json|svg|txt|wasm)$/,
      threshold: 512,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: 'dist',
    // hashed bundles go to /static; /assets is the item and case art served by the API server
    assetsDir: 'static',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // the bundler's report of slow plugins is a profiling aid, not a warning: `npm start` and every test
      // run printed it as a warning block (the art copies are slow on purpose, made once per build);
      // every other check still warns
      checks: { bundlerTimings: false },
    },
    // Telegram's WebViews: recent Chromium on Android, Safari 16+ on iOS (which needs -webkit-backdrop-filter);
    // the minifier writes the prefixed and unprefixed forms for these
    cssTarget: ['chrome111', 'safari16'],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, ws: true },
      '/tonconnect-manifest.json': apiTarget,
    },
  },
});
