import { useTranslation } from 'react-i18next';

/** The inventory; filled by the inventory issue. */
export function InventoryPage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="inventory-page">
      <h1 className="screen__title">{t('inventory.title')}</h1>
    </section>
  );
}
