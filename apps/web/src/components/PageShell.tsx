import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A screen's frame: its title and its content. */
export function PageShell({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, flex: 1 }}>
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children !== undefined && (
        <Paper variant="outlined" sx={{ p: 3, flex: 1 }}>
          {children}
        </Paper>
      )}
    </Box>
  );
}
