import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../wallet/clipboard';
import { exportConfigFile, importConfig, type ConfigObject } from './config-io';
import type { SceneEntry } from './registry';

interface ConfigTransferProps {
  scene: SceneEntry;
  config: ConfigObject;
  onImport: (config: ConfigObject) => void;
}

type Status = { kind: 'ok' | 'error'; text: string; details?: string[] } | null;

/**
 * Export: the scene's config.ts with the tuned values (copy or download), to hand to the team as it is.
 * Import: a pasted or uploaded config (the file, its statement, the bare literal or JSON), read without
 * running it and checked field by field against the scene's defaults.
 */
export function ConfigTransfer({ scene, config, onImport }: ConfigTransferProps) {
  const { t } = useTranslation();
  const file = useMemo(
    () => exportConfigFile(config, scene.declaration, scene.source),
    [config, scene.declaration, scene.source],
  );
  const fileName = `${scene.id}.config.ts`;
  const [copyState, setCopyState] = useState<'copied' | 'failed' | null>(null);
  const [pasted, setPasted] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const upload = useRef<HTMLInputElement>(null);

  const copy = async () => {
    const ok = await copyText(file);
    setCopyState(ok ? 'copied' : 'failed');
    setTimeout(() => setCopyState(null), 1500);
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([file], { type: 'text/typescript' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const apply = (text: string) => {
    const result = importConfig(text, scene.defaults, {
      constName: scene.declaration.constName,
      rules: scene.rules,
    });
    if (!result.ok) {
      setStatus({ kind: 'error', text: t('debug.importError'), details: result.errors });
      return;
    }
    onImport(result.config);
    setStatus({
      kind: 'ok',
      text:
        result.missing.length > 0
          ? t('debug.importedMissing', { fields: result.missing.join(', ') })
          : t('debug.imported'),
    });
  };

  return (
    <div className="debug-transfer" data-testid="debug-transfer">
      <section className="debug-card">
        <h3 className="debug-card__title">{t('debug.export')}</h3>
        <p className="debug-card__hint">{t('debug.exportHint')}</p>
        <div className="debug-row">
          <button type="button" className="debug-button" onClick={() => void copy()} data-testid="debug-copy">
            {copyState === 'copied'
              ? t('debug.copied')
              : copyState === 'failed'
                ? t('debug.copyFailed')
                : t('debug.copy')}
          </button>
          <button type="button" className="debug-button" onClick={download} data-testid="debug-download">
            {t('debug.download')} <code>{fileName}</code>
          </button>
        </div>
        <details className="debug-file">
          <summary>{t('debug.showFile')}</summary>
          <pre className="debug-file__text" data-testid="debug-export-text">
            {file}
          </pre>
        </details>
      </section>

      <section className="debug-card">
        <h3 className="debug-card__title">{t('debug.import')}</h3>
        <p className="debug-card__hint">{t('debug.importHint')}</p>
        <textarea
          className="debug-input debug-transfer__paste"
          value={pasted}
          rows={5}
          spellCheck={false}
          aria-label={t('debug.import')}
          data-testid="debug-import-text"
          onChange={(event) => setPasted(event.target.value)}
        />
        <div className="debug-row">
          <button
            type="button"
            className="debug-button"
            onClick={() => apply(pasted)}
            disabled={!pasted.trim()}
            data-testid="debug-import-apply"
          >
            {t('debug.apply')}
          </button>
          <button type="button" className="debug-button" onClick={() => upload.current?.click()}>
            {t('debug.upload')}
          </button>
          <input
            ref={upload}
            type="file"
            accept=".ts,.json,.txt,text/plain,application/json"
            hidden
            data-testid="debug-import-file"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (chosen) void chosen.text().then(apply);
            }}
          />
        </div>
        {status && (
          <div
            className="debug-status"
            data-kind={status.kind}
            role={status.kind === 'error' ? 'alert' : 'status'}
            data-testid="debug-import-status"
          >
            <p>{status.text}</p>
            {status.details && (
              <ul>
                {status.details.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
