import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { dismissToast, subscribeToasts, type ToastItem } from './toast';

/** Renders the app toasts in the top-centre container. */
export function ToastHost() {
  const [items, setItems] = useState<ToastItem[]>([]);
  useEffect(() => subscribeToasts(setItems), []);
  return (
    <Stack
      spacing={1}
      sx={{
        position: 'fixed',
        top: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (t) => t.zIndex.snackbar,
        width: 'min(480px, calc(100vw - 32px))',
        pointerEvents: 'none',
      }}
    >
      {items.map((item) => (
        <Alert
          key={item.id}
          data-testid="toast"
          severity={item.kind}
          variant="filled"
          onClose={() => dismissToast(item.id)}
          sx={{ pointerEvents: 'auto', boxShadow: 3 }}
        >
          {item.text}
        </Alert>
      ))}
    </Stack>
  );
}
