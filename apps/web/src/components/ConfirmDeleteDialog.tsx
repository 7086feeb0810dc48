import type { ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import { toast, toastError } from './toast';

interface ConfirmDeleteDialogProps {
  /** The record being deleted; the dialog is open while one is set. */
  record: { id: number } | null;
  title: string;
  children: ReactNode;
  /** The success toast: a fixed text, or one the delete's answer carries (shown as info). */
  deletedText: string | ((result: unknown) => string);
  remove: (id: number) => Promise<unknown>;
  onClose: () => void;
}

/** Confirms a delete, runs it, and reports the outcome as a toast. */
export function ConfirmDeleteDialog({ record, title, children, deletedText, remove, onClose }: ConfirmDeleteDialogProps) {
  return (
    <ConfirmDialog
      open={record !== null}
      title={title}
      onClose={onClose}
      onConfirm={async () => {
        if (!record) return;
        try {
          const result = await remove(record.id);
          if (typeof deletedText === 'string') toast.success(deletedText);
          else toast.info(deletedText(result));
        } catch (err) {
          toastError(err);
        }
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
