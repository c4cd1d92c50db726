/**
 * Toasts as the spec sets them: one visible at a time, shown 5 seconds, dismissed
 * by its button or a swipe to the right (50px), and F8 moves focus to them.
 */
import { atom, useAtom, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

const DURATION_MS = 5000;
const SWIPE_THRESHOLD = 50;
const toastAtom = atom<Toast | null>(null);
let nextId = 1;

export function useToast() {
  const setToast = useSetAtom(toastAtom);
  return {
    toast: (toast: Omit<Toast, 'id'>) => setToast({ ...toast, id: nextId++ }),
    dismiss: () => setToast(null),
  };
}

export function Toaster() {
  const [toast, setToast] = useAtom(toastAtom);
  const region = useRef<HTMLDivElement>(null);
  const [dragX, setDragX] = useState(0);
  const start = useRef<number | null>(null);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, setToast]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      role="region"
      className="fixed right-4 bottom-4 z-50 w-[min(24rem,calc(100vw-2rem))] outline-none"
    >
      <div aria-live="polite" aria-atomic="true">
        {toast && (
          <div
            role={toast.variant === 'destructive' ? 'alert' : 'status'}
            style={{ transform: `translateX(${Math.max(0, dragX)}px)` }}
            onPointerDown={(event) => (start.current = event.clientX)}
            onPointerMove={(event) => start.current !== null && setDragX(event.clientX - start.current)}
            onPointerUp={() => {
              if (dragX > SWIPE_THRESHOLD) setToast(null);
              start.current = null;
              setDragX(0);
            }}
            className={`flex items-start gap-3 rounded-lg border p-4 shadow-lg ${
              toast.variant === 'destructive'
                ? 'border-red-700 bg-red-600 text-white'
                : 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100'
            }`}
          >
            <div className="flex-1">
              <p className="font-semibold">{toast.title}</p>
              {toast.description && <p className="mt-1 text-sm opacity-90">{toast.description}</p>}
            </div>
            <button
              type="button"
              onClick={() => setToast(null)}
              aria-label="Dismiss notification"
              className="min-h-11 min-w-11 rounded text-lg leading-none opacity-70 hover:opacity-100"
            >
              ×
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
