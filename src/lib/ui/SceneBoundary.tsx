import { Component, type ReactNode } from 'react';

interface SceneBoundaryProps {
  /** The scene's name in the console message when it fails; default 'Scene'. */
  name?: string;
  /** What shows instead of the scene when it cannot run (no graphics, its chunk failed to load). */
  fallback?: ReactNode;
  /** Called once when the scene failed. */
  onFail?: (error: unknown) => void;
  children: ReactNode;
}

/** Keeps a screen usable when its Pixi scene cannot run here: the rest of the screen stays. */
export class SceneBoundary extends Component<SceneBoundaryProps, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(`${this.props.name ?? 'Scene'} failed`, error);
    this.props.onFail?.(error);
  }
  override render() {
    return this.state.failed ? (this.props.fallback ?? null) : this.props.children;
  }
}
