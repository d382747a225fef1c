import { useEffect } from 'react';

/** Sets document.title to '{title} | LastSlot' (or 'LastSlot' alone). */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | LastSlot` : 'LastSlot';
  }, [title]);
}
