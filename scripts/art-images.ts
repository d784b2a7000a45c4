// Build-time raster copies of the case art: each SVG in assets/cases becomes AVIF and WebP at the size of its
// slot on the case list, at 1x and 2x, under the hashed /static folder (cached for a year). The client gets
// the file names through the virtual module `virtual:art-variants`, and index.html preloads the pictures of
// the first cases on screen, so the first screen's largest pictures start loading with the page itself.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';

/** CSS pixels of a case picture on the case list (two columns on a 390 px wide phone). */
export const CASE_ART_SLOT_PX = 160;
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
      const dir = join(assetsDir, 'cases');
      for (const name of readdirSync(dir)
        .filter((f) => f.endsWith('.svg'))
        .sort()) {
        const svg = readFileSync(join(dir, name));
        const id = name.replace(/\.svg$/, '');
        const entry = {} as Record<Format, string>;
        for (const format of FORMATS) {
          const set: string[] = [];
          for (const scale of SCALES) {
            const px = CASE_ART_SLOT_PX * scale;
            const image = sharp(svg, { density: 72 * Math.ceil(px / 64) }).resize(px, px, {
              fit: 'contain',
              background: { r: 0, g: 0, b: 0, alpha: 0 },
            });
            const source =
              format === 'avif'
                ? await image.avif({ quality: 60, effort: 2 }).toBuffer()
                : await image.webp({ quality: 82, alphaQuality: 90, effort: 4 }).toBuffer();
            const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
            const fileName = `${assetsSubdir}/art/${id}-${px}.${hash}.${format}`;
            files.push({ fileName, source });
            set.push(`${base}${fileName} ${scale}x`);
          }
          entry[format] = set.join(', ');
        }
        variants[`/assets/cases/${name}`] = entry;
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
