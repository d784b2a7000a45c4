import { useState, type CSSProperties } from 'react';
import { initialOf } from '../format';

interface AvatarProps {
  src: string | null | undefined;
  /** whose avatar: its first letter stands in when there is no picture or it fails to load */
  name: string | null | undefined;
  size?: number;
}

export function Avatar({ src, name, size = 32 }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  return (
    <span className="avatar" style={{ '--avatar-size': `${size}px` } as CSSProperties} aria-hidden="true">
      {showImage ? (
        <img
          className="avatar__img"
          src={src ?? undefined}
          alt=""
          referrerPolicy="no-referrer"
          onError={() => setFailedSrc(src ?? null)}
        />
      ) : (
        <span className="avatar__initial">{initialOf(name)}</span>
      )}
    </span>
  );
}
