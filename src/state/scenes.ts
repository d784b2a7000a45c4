import { atom } from 'jotai';

/**
 * Whether a scene is playing a spin right now (from its runtime's `started` to its `settled`): while it is,
 * the chrome around it holds still (no balance poll, no new feed cards), so nothing but the scene moves and
 * the main thread has nothing to do per frame.
 */
export const scenePlayingAtom = atom(false);
