import { lazy, memo, Suspense } from 'react';

// The strip's code, state and socket load after the first screen (DESIGN rule 9); until then an empty
// slot of the strip's height keeps the page from jumping.
const DropStrip = lazy(() => import('./DropStrip').then((m) => ({ default: m.DropStrip })));

/** The strip's height in px (feed.css lays the strip out to fit it). */
const SLOT_HEIGHT = 84;

/**
 * The live drops strip (spec §1): everyone's latest drops, newest first. Memoized and without props, so
 * the page around it (the case page while the roulette spins) never re-renders it; the feed's own atoms do.
 */
export const DropFeed = memo(function DropFeed() {
  return (
    <div className="drop-feed-slot" style={{ minHeight: SLOT_HEIGHT }}>
      <Suspense fallback={null}>
        <DropStrip />
      </Suspense>
    </div>
  );
});
