import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { LanguageSwitch } from './LanguageSwitch';
import { Logo } from './Logo';
import { ThemeToggle } from './ThemeToggle';

/** The frame of the public pages: an optional branding image, the form card, theme and language switches. */
export function AuthFrame({ image, children }: { image: string | null; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      {image && (
        <Box
          sx={{
            flex: 1,
            display: { xs: 'none', md: 'block' },
            backgroundImage: `url(${image})`,
            backgroundSize: 'cover',
            backgroundPosition: 'center',
          }}
        />
      )}
      <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', p: 2 }}>
        <Stack direction="row" spacing={0.5} sx={{ alignSelf: 'flex-end', color: 'text.secondary' }}>
          <ThemeToggle />
          <LanguageSwitch />
        </Stack>
        <Paper elevation={3} sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 }, my: 'auto' }}>
          <Box sx={{ display: 'flex', justifyContent: 'center', mb: 3 }}>
            <Logo maxHeight={72} />
          </Box>
          {children}
        </Paper>
      </Box>
    </Box>
  );
}
