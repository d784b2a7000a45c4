import { Howl, Howler } from 'howler';
import { useSyncExternalStore } from 'react';
import { atTimes, spacedTimes } from './schedule';
import tickPlayerUrl from './tick-player.worklet.ts?worker&url';

/**
 * The app's sounds: one shared howler module for every screen that plays them (roulette ticks, wins).
 * Import it only from lazily loaded screens: howler stays off the first screen.
 *
 * Sounds load on first use, and never before the player's first gesture: browsers refuse to start an
 * AudioContext until the page has been touched (and say so in the console), so howler is not touched before
 * then. A screen opened by a tap (the usual way in) loads them at once; one opened by a link loads them on
 * its first tap. The mute choice is kept in localStorage under `sound` ('on' or 'off').
 */

/** Local storage key of the mute choice. */
const SOUND_KEY = 'sound';

/** The shortest gap between two ticks, ms: a fast reel crosses many cards a second, the ear needs fewer. */
const TICK_MIN_GAP_MS = 55;

type SoundName = 'tick' | 'win';

const SOURCES: Record<SoundName, { src: string[]; volume: number }> = {
  tick: { src: ['/assets/sounds/tick.wav'], volume: 0.35 },
  win: { src: ['/assets/sounds/win.wav'], volume: 0.7 },
};

function readMuted(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'off';
  } catch {
    return false;
  }
}

// Howler unlocks its audio context at the first touch after it made one, and that unlock also fills a pool of
// ten HTML5 Audio elements for sounds played without Web Audio. Every sound here plays through Web Audio
// (where there is none, howler never unlocks and the pool stays empty anyway), so the pool is never used:
// making its elements was most of that touch's handler, which on the screen's first spin delays the tap's
// request (~20 ms of a 6x-throttled main thread)
Howler.html5PoolSize = 0;

// Checked before every play; Howler itself is told only on a change (a tap), so merely importing this
// module creates no audio context before the player has touched anything.
let muted = readMuted();

const listeners = new Set<() => void>();
const howls = new Map<SoundName, Howl>();
let lastTickAt = -Infinity;

/** Events that count as a user activation (they let an AudioContext start). */
const GESTURES = ['pointerup', 'touchend', 'keydown', 'click'] as const;

/** Whether the page has had a user gesture, so an AudioContext may start. */
function hasGesture(): boolean {
  return typeof navigator !== 'undefined' && navigator.userActivation?.hasBeenActive === true;
}

let afterGesture: (() => void)[] = [];

/** Runs `task` now if the page has had a gesture, else inside the first one (before it is over). */
function onFirstGesture(task: () => void): void {
  if (hasGesture()) {
    task();
    return;
  }
  if (afterGesture.length === 0) {
    const run = () => {
      for (const type of GESTURES) window.removeEventListener(type, run, true);
      const tasks = afterGesture;
      afterGesture = [];
      for (const t of tasks) t();
    };
    for (const type of GESTURES) window.addEventListener(type, run, true);
  }
  afterGesture.push(task);
}

function howl(name: SoundName): Howl {
  let sound = howls.get(name);
  if (!sound) {
    const { src, volume } = SOURCES[name];
    sound = new Howl({ src, volume, preload: true });
    howls.set(name, sound);
  }
  return sound;
}

/**
 * The tick decoded on howler's audio context, for ticks scheduled ahead on the audio clock (null where
 * there is no Web Audio: those ticks fall back to timers).
 */
let tickBuffer: Promise<AudioBuffer | null> | null = null;

function loadTickBuffer(): Promise<AudioBuffer | null> {
  const context = Howler.ctx as AudioContext | undefined;
  if (!context) return Promise.resolve(null);
  tickBuffer ??= fetch(SOURCES.tick.src[0]!)
    .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error('no tick'))))
    .then((data) => context.decodeAudioData(data))
    .catch(() => null);
  return tickBuffer;
}

/**
 * The tick's buffer for a play starting now. Without an audio context yet (the play's tap was the page's first
 * gesture), one is made once the play's first frames are drawn (making one is a long task on a slow phone)
 * and the ticks still to come are scheduled then.
 */
function tickBufferSoon(): Promise<AudioBuffer | null> {
  if (Howler.ctx) return loadTickBuffer();
  return new Promise((resolve) =>
    requestAnimationFrame(() =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          for (const name of Object.keys(SOURCES) as SoundName[]) howl(name);
          void loadTickPlayer();
          resolve(loadTickBuffer());
        }, 0),
      ),
    ),
  );
}

/**
 * The tick player on the audio thread (tick-player.worklet.ts), holding the tick, connected through the
 * tick's volume to howler's master gain (so muting silences it); null where there is no AudioWorklet (ticks
 * are then mixed into a track here, see tickTrack).
 */
let tickPlayer: Promise<AudioWorkletNode | null> | null = null;

function loadTickPlayer(): Promise<AudioWorkletNode | null> {
  const context = Howler.ctx as AudioContext | undefined;
  if (!context || typeof AudioWorkletNode === 'undefined' || !context.audioWorklet)
    return Promise.resolve(null);
  tickPlayer ??= Promise.all([loadTickBuffer(), context.audioWorklet.addModule(tickPlayerUrl)])
    .then(([buffer]) => {
      if (!buffer) return null;
      const node = new AudioWorkletNode(context, 'tick-player', {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [1],
      });
      // the tick is mono (a second channel, if any, is the same click)
      const samples = buffer.getChannelData(0).slice();
      node.port.postMessage({ type: 'sound', samples }, [samples.buffer]);
      const gain = context.createGain();
      gain.gain.value = SOURCES.tick.volume;
      node.connect(gain);
      gain.connect(Howler.masterGain);
      return node;
    })
    .catch(() => null);
  return tickPlayer;
}

/** Loads the sounds ahead of their first use (e.g. when a screen that plays them opens). */
export function preloadSounds(): void {
  onFirstGesture(() => {
    for (const name of Object.keys(SOURCES) as SoundName[]) howl(name);
    void loadTickPlayer();
  });
}

/**
 * Loads the sounds now if the page has had a gesture already (a screen opened by a tap), so that nothing of
 * it is left for the screen's first action; otherwise it waits for that action to ask (preloadSounds after
 * its request is out), never holding up a tap.
 */
export function preloadSoundsIfAllowed(): void {
  if (hasGesture()) preloadSounds();
}

/** Plays a sound once, unless muted (or before any gesture: nothing could be heard then). */
function playSound(name: SoundName): void {
  if (muted || !hasGesture()) return;
  try {
    howl(name).play();
  } catch {
    // no audio on this device: stay silent
  }
}

/**
 * The win sound, stepping up with the win's tier (0 to 4): louder and brighter, and from tier 3 a second,
 * higher strike after it, so a big win sounds bigger than a small one.
 */
export function playWinSound(tier: number): void {
  if (muted || !hasGesture()) return;
  try {
    const sound = howl('win');
    const strike = (rate: number, volume: number) => {
      const id = sound.play();
      sound.rate(rate, id);
      sound.volume(volume, id);
    };
    strike(1 + tier * 0.05, Math.min(0.45 + tier * 0.12, 1));
    if (tier >= 3) setTimeout(() => strike(1.25 + (tier - 3) * 0.1, 0.6), 220);
  } catch {
    // no audio on this device: stay silent
  }
}

/**
 * The roulette tick, at most once every TICK_MIN_GAP_MS whatever the number of reels or their speed, so a
 * fast reel never stacks hundreds of overlapping sounds. Returns whether it played.
 */
export function playTick(now: number = performance.now()): boolean {
  if (muted || now - lastTickAt < TICK_MIN_GAP_MS) return false;
  lastTickAt = now;
  playSound('tick');
  return true;
}

/**
 * Where there is no AudioWorklet: one buffer holding the tick at each of `starts` (audio-clock seconds,
 * ascending), from the first, so a spin's ticks play as one source started once. A source node per tick cost a long main-thread task as the reels
 * started (each node made, connected and started there), and each one's end was handled there again.
 */
function tickTrack(context: AudioContext, tick: AudioBuffer, starts: readonly number[]): AudioBuffer | null {
  const first = starts[0];
  const last = starts.at(-1);
  if (first === undefined || last === undefined) return null;
  const rate = tick.sampleRate;
  const offsets = starts.map((when) => Math.round((when - first) * rate));
  const track = context.createBuffer(tick.numberOfChannels, offsets.at(-1)! + tick.length, rate);
  for (let channel = 0; channel < tick.numberOfChannels; channel++) {
    const sound = tick.getChannelData(channel);
    const out = track.getChannelData(channel);
    let end = 0;
    for (const offset of offsets) {
      if (offset >= end) out.set(sound, offset);
      // ticks closer than the tick is long overlap: mixed, as separate sources would be
      else for (let i = 0; i < sound.length; i++) out[offset + i] = out[offset + i]! + sound[i]!;
      end = offset + sound.length;
    }
  }
  return track;
}

/** How long after its last tick a play that was never stopped lets the audio context sleep again, ms. */
const UNSETTLED_RELEASE_MS = 5_000;

/** Tick plays whose ticks are still to come (howler may not suspend the audio context under them). */
let playsUnderWay = 0;

/**
 * Keeps howler's audio context running for a play of ticks, until the returned release is called (once; a
 * second call does nothing). Howler suspends the context 30 s after its own last sound ended, counting only
 * its own sounds: the ticks reach the context without howler, so a spin 30 s after the last win would turn
 * silent, or fall silent part way. Once no play is under way, howler's countdown starts again.
 */
function holdContextAwake(): () => void {
  playsUnderWay += 1;
  Howler.autoSuspend = false;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    playsUnderWay -= 1;
    if (playsUnderWay > 0) return;
    Howler.autoSuspend = true;
    // howler's own countdown (not in its typings): it suspends the context 30 s on if no sound of its plays
    (Howler as unknown as { _autoSuspend?: () => void })._autoSuspend?.();
  };
}

/** A context howler suspended while nothing played, running again (a spin's tap is a gesture: it may). */
async function running(context: AudioContext): Promise<void> {
  if (context.state === 'running') return;
  try {
    await context.resume();
  } catch {
    // it cannot run (no audio device): the ticks are simply not heard
  }
}

/** Names each play posted to the tick player (a cancel stops that one only). */
let nextTickPlay = 0;

/**
 * The tick at each of `times` (performance.now() values: a spin's crossings, known when it starts), spaced
 * like playTick, started ahead on the audio clock so that nothing runs on this thread while they play.
 * Returns a function that silences the ones still to come.
 */
export function scheduleTicks(times: readonly number[]): () => void {
  if (muted || !hasGesture() || times.length === 0) return () => undefined;
  const spaced = spacedTimes(times, TICK_MIN_GAP_MS, lastTickAt);
  lastTickAt = spaced.at(-1) ?? lastTickAt;
  let cancel = () => undefined as void;
  let cancelled = false;
  void tickBufferSoon().then(async (buffer) => {
    const context = Howler.ctx as AudioContext | undefined;
    const player = buffer && context ? await loadTickPlayer() : null;
    if (cancelled) return;
    if (!buffer || !context) {
      cancel = atTimes(spaced, () => playSound('tick'));
      return;
    }
    // held from before the resume: howler's countdown may not suspend the context in between
    const release = holdContextAwake();
    await running(context);
    if (cancelled) {
      release();
      return;
    }
    const audioNow = context.currentTime;
    const pageNow = performance.now();
    const starts = spaced.map((at) => audioNow + (at - pageNow) / 1000).filter((when) => when >= audioNow);
    // the context may sleep again once the last tick has sounded: when the play settles, which silences
    // what is left (none by then) and releases it, not by a timer due mid-spin, right after the last tick
    // (a task on this thread while the reel still slows); this one only for a play that never settles
    const lastEnds = ((starts.at(-1) ?? audioNow) - audioNow + buffer.duration) * 1000;
    const releaseTimer = setTimeout(release, lastEnds + UNSETTLED_RELEASE_MS);
    const stopHolding = () => {
      clearTimeout(releaseTimer);
      release();
    };
    if (player) {
      // the audio thread plays them: this thread only says when
      const id = (nextTickPlay += 1);
      player.port.postMessage({ type: 'play', id, starts });
      cancel = () => {
        player.port.postMessage({ type: 'stop', id });
        stopHolding();
      };
      return;
    }
    const track = tickTrack(context, buffer, starts);
    if (!track) {
      stopHolding();
      return;
    }
    const gain = context.createGain();
    gain.gain.value = SOURCES.tick.volume;
    gain.connect(Howler.masterGain);
    const node = context.createBufferSource();
    node.buffer = track;
    node.connect(gain);
    // building the track took a moment: a first tick already due starts where the audio clock is, so the
    // ticks after it keep their times
    const first = starts[0]!;
    node.start(first, Math.max(context.currentTime - first, 0));
    cancel = () => {
      node.stop();
      gain.disconnect();
      stopHolding();
    };
  });
  return () => {
    cancelled = true;
    cancel();
    // the ticks still to come were not heard: live ticks (a debug clock change) need not wait for them
    lastTickAt = Math.min(lastTickAt, performance.now());
  };
}

function isMuted(): boolean {
  return muted;
}

/** Mutes or unmutes every sound and remembers the choice. */
function setMuted(value: boolean): void {
  if (value === muted) return;
  muted = value;
  Howler.mute(value);
  try {
    localStorage.setItem(SOUND_KEY, value ? 'off' : 'on');
  } catch {
    // remembered for this session only
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The mute state for React, with a setter; every screen using it stays in step. */
export function useSoundMuted(): [boolean, (muted: boolean) => void] {
  return [useSyncExternalStore(subscribe, isMuted, isMuted), setMuted];
}
