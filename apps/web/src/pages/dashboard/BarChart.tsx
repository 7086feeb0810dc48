import Box from '@mui/material/Box';
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { useTheme } from '@mui/material/styles';

// Only what a bar chart needs: chart.js tree-shakes the rest out of the dashboard's chunk.
Chart.register(BarElement, CategoryScale, LinearScale, Tooltip);

/** A bar chart; the canvas is an image to assistive technology, named by `label` (title and total). */
export function BarChart({ labels, values, label, testId }: { labels: string[]; values: number[]; label: string; testId: string }) {
  const theme = useTheme();
  return (
    <Box sx={{ position: 'relative', height: 300 }} data-testid={testId} data-points={values.length}>
      <Bar
        role="img"
        aria-label={label}
        data={{ labels, datasets: [{ label, data: values, backgroundColor: theme.palette.primary.main, borderRadius: 4 }] }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: {
            x: { ticks: { color: theme.palette.text.secondary } },
            y: { beginAtZero: true, ticks: { precision: 0, color: theme.palette.text.secondary } },
          },
        }}
      />
    </Box>
  );
}
