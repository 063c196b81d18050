import type { FormEvent } from 'react';

/** A form's submit handler that stays on the page (no navigation) and does `act`: Enter in a field acts too. */
export function submitWith(act: () => void): (e: FormEvent) => void {
  return (e) => {
    e.preventDefault();
    act();
  };
}
