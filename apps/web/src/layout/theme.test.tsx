import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import CircularProgress from '@mui/material/CircularProgress';
import { ThemeProvider } from '@mui/material/styles';
import { buildTheme } from './theme';

afterEach(cleanup);

describe('theme', () => {
  it('names every spinner, so a loading screen passes axe (aria-progressbar-name)', () => {
    render(
      <ThemeProvider theme={buildTheme('light', '#065183', 'Loading...')}>
        <CircularProgress />
      </ThemeProvider>,
    );
    expect(screen.getByRole('progressbar', { name: 'Loading...' })).toBeTruthy();
  });
});
