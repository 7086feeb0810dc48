import type { ReactNode } from 'react';
import CloseIcon from '@mui/icons-material/Close';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';

interface ClosableDialogTitleProps {
  children: ReactNode;
  closeLabel: string;
  onClose: () => void;
  closeTestId?: string;
  /** For the dialog's aria-labelledby. */
  id?: string;
}

/** A dialog's title with the close button in its corner, as every form dialog has it. */
export function ClosableDialogTitle({ children, closeLabel, onClose, closeTestId, id }: ClosableDialogTitleProps) {
  return (
    <DialogTitle id={id} sx={{ pr: 6 }}>
      {children}
      <IconButton aria-label={closeLabel} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }} data-testid={closeTestId}>
        <CloseIcon />
      </IconButton>
    </DialogTitle>
  );
}
