'use client';
// Marks the comparison as drawn once the page has hydrated: bench/trace times it.
import { useEffect } from 'react';

export function CompareReady() {
  useEffect(() => {
    document.querySelector('[data-testid="compare-view"]')?.setAttribute('data-ready', String(Math.round(performance.now())));
  }, []);
  return null;
}
