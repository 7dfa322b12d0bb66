// Modal dialogs on the native <dialog> element: focus moves in, Escape closes, the page behind
// is inert. `confirmAction` asks before anything destructive and resolves to the answer.
import { type ReactNode, useEffect, useRef, useSyncExternalStore } from "react";
import { raiseToasts } from "./toast.tsx";

export function Modal({
  title,
  onClose,
  children,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element, the header's ×: typing a title at once
      // would press it on the first space. Focus goes to the dialog's purpose instead.
      initialFocus(dialog)?.focus();
    }
    // A toast drawn under the modal's backdrop could be neither seen nor read: draw it inside.
    const lower = raiseToasts(dialog);
    return () => {
      lower();
      dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? "modal modal-wide" : "modal"}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      aria-label={title}
    >
      <header className="modal-head">
        <h2>{title}</h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}

/** A `data-autofocus` element, else the first field, else the main action of the body. */
function initialFocus(dialog: HTMLDialogElement): HTMLElement | null {
  const body = dialog.querySelector(".modal-body");
  if (!body) return null;
  const pick = (selector: string) =>
    [...body.querySelectorAll<HTMLElement>(selector)].find(
      (el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null,
    );
  return (
    pick("[data-autofocus]") ??
    pick("input:not([type=hidden]), textarea, select") ??
    pick(".modal-actions .btn-primary, .modal-actions .btn-danger") ??
    null
  );
}

interface Ask {
  title: string;
  body: ReactNode;
  confirm: string;
  keep: string;
  danger: boolean;
  resolve: (ok: boolean) => void;
}

let current: Ask | null = null;
const listeners = new Set<() => void>();
const publish = (next: Ask | null) => {
  current = next;
  for (const l of listeners) l();
};

export function confirmAction(options: {
  title: string;
  body: ReactNode;
  confirm?: string;
  /** The button that answers no, as a verb of what it keeps ("Keep running"); "Go back" else. */
  keep?: string;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    current?.resolve(false);
    publish({
      title: options.title,
      body: options.body,
      confirm: options.confirm ?? "Confirm",
      keep: options.keep ?? "Go back",
      danger: options.danger ?? true,
      resolve,
    });
  });
}

/** Rendered once by the shell; shows the pending confirmation, if any. */
export function ConfirmHost() {
  const ask = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
  if (!ask) return null;
  const answer = (ok: boolean) => {
    publish(null);
    ask.resolve(ok);
  };
  return (
    <Modal title={ask.title} onClose={() => answer(false)}>
      <div className="confirm-body">{ask.body}</div>
      <div className="modal-actions">
        <button type="button" className="btn" onClick={() => answer(false)}>
          {ask.keep}
        </button>
        <button
          type="button"
          className={ask.danger ? "btn btn-danger" : "btn btn-primary"}
          onClick={() => answer(true)}
          data-autofocus
        >
          {ask.confirm}
        </button>
      </div>
    </Modal>
  );
}
