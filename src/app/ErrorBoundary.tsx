import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RouteErrorScreen } from '../features/launch/RouteErrorScreen';

interface State {
  failed: boolean;
}

/** A screen that throws while rendering (or whose code fails to load) shows a reload prompt. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Screen failed', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteErrorScreen /> : this.props.children;
  }
}
