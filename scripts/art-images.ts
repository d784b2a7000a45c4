// Build-time raster copies of the case and item art: each SVG in assets/cases and assets/items becomes AVIF
// and WebP at the size of its slot, at 1x and 2x, under the hashed /static folder (cached for a year). The
// client gets the file names through the virtual module `virtual:art-variants`: pages show the copies, the
// scene runtime bakes the WebP ones (a worker decodes them itself; an SVG needs the main thread), and
// index.html preloads the pictures of the first cases on screen, so the first screen's largest pictures
// start loading with the page itself.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';

/** CSS pixels of a case picture on the case list (two columns on a 390 px wide phone). */
export const CASE_ART_SLOT_PX = 160;
/** CSS pixels of the largest item picture: a roulette card's art (a 130 px card less its padding). */
export const ITEM_ART_SLOT_PX = 128;
/** Which folders of the art have copies made, and their slot. */
const FOLDERS = [
  { folder: 'cases', slot: CASE_ART_SLOT_PX },
  { folder: 'items', slot: ITEM_ART_SLOT_PX },
] as const;
const SCALES = [1, 2] as const;
const FORMATS = ['avif', 'webp'] as const;
type Format = (typeof FORMATS)[number];

/** For one art URL (as the API names it, e.g. /assets/cases/starter.svg): srcset strings by format. */
export type ArtVariants = Record<string, Record<Format, string>>;

const VIRTUAL_ID = 'virtual:art-variants';
const RESOLVED_ID = '\0' + VIRTUAL_ID;

interface Options {
  /** the art folder (the API serves it at /assets) */
  assetsDir: string;
  /** art URLs of the pictures to preload from index.html, in screen order */
  preload: () => string[];
}

export function artImages({ assetsDir, preload }: Options): Plugin {
  let building = false;
  let base = '/';
  let assetsSubdir = 'assets';
  const variants: ArtVariants = {};
  const files: { fileName: string; source: Buffer }[] = [];

  return {
    name: 'giftcases-art-images',
    configResolved(config) {
      building = config.command === 'build';
      base = config.base;
      assetsSubdir = config.build.assetsDir;
    },
    async buildStart() {
      if (!building) return; // the dev server shows the SVGs themselves
      // one folder after the other, each picture's four copies at once (sharp works on its own threads)
      for (const { folder, slot } of FOLDERS) {
        const dir = join(assetsDir, folder);
        const names = readdirSync(dir)
          .filter((f) => f.endsWith('.svg'))
          .sort();
        for (const name of names) {
          const svg = readFileSync(join(dir, name));
          const id = name.replace(/\.svg$/, '');
          const made = await Promise.all(
            FORMATS.flatMap((format) =>
              SCALES.map(async (scale) => {
                const px = slot * scale;
                const image = sharp(svg, { density: 72 * Math.ceil(px / 64) }).resize(px, px, {
                  fit: 'contain',
                  background: { r: 0, g: 0, b: 0, alpha: 0 },
                });
                const source =
                  format === 'avif'
                    ? await image.avif({ quality: 60, effort: 2 }).toBuffer()
                    : await image.webp({ quality: 82, alphaQuality: 90, effort: 4 }).toBuffer();
                const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
                const fileName = `${assetsSubdir}/art/${folder}/${id}-${px}.${hash}.${format}`;
                files.push({ fileName, source });
                return { format, entry: `${base}${fileName} ${scale}x` };
              }),
            ),
          );
          const entry = {} as Record<Format, string>;
          for (const format of FORMATS)
            entry[format] = made
              .filter((m) => m.format === format)
              .map((m) => m.entry)
              .join(', ');
          variants[`/assets/${folder}/${name}`] = entry;
        }
      }
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    load(id) {
      return id === RESOLVED_ID ? `export default ${JSON.stringify(variants)};` : null;
    },
    generateBundle() {
      for (const { fileName, source } of files) this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml() {
      if (!building) return [];
      return preload()
        .map((url) => variants[url])
        .filter((v): v is Record<Format, string> => v !== undefined)
        .map((v) => ({
          tag: 'link',
          attrs: {
            rel: 'preload',
            as: 'image',
            type: 'image/avif',
            imagesrcset: v.avif,
            fetchpriority: 'high',
          },
          injectTo: 'head' as const,
        }));
    },
  };
}
