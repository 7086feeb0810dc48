import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import { customPlanPrice } from '@balcao/contracts';
import { formatAmount } from '../../components/format';
import { stepSeats } from './seats';

export interface Seats {
  users: number;
  connections: number;
}

function Stepper({ label, value, testId, onChange }: { label: string; value: number; testId: string; onChange: (value: number) => void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
      <Typography>{label}</Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton aria-label={t('financeiro.checkout.decrease', { what: label })} data-testid={`${testId}-decrease`} onClick={() => onChange(stepSeats(value, -1))}>
          <RemoveIcon />
        </IconButton>
        <Typography data-testid={`${testId}-value`} sx={{ minWidth: 32, textAlign: 'center', fontWeight: 600 }}>
          {value}
        </Typography>
        <IconButton aria-label={t('financeiro.checkout.increase', { what: label })} data-testid={`${testId}-increase`} onClick={() => onChange(stepSeats(value, 1))}>
          <AddIcon />
        </IconButton>
      </Stack>
    </Stack>
  );
}

/** The custom plan editor (Personalizar): users and connections steppers; the price follows them. */
export function PlanEditor({ seats, onChange }: { seats: Seats; onChange: (seats: Seats) => void }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" gutterBottom>
        {t('financeiro.checkout.plan')}
      </Typography>
      <Stack spacing={1}>
        <Stepper label={t('financeiro.checkout.users')} value={seats.users} testId="checkout-users" onChange={(users) => onChange({ ...seats, users })} />
        <Stepper
          label={t('financeiro.checkout.connections')}
          value={seats.connections}
          testId="checkout-connections"
          onChange={(connections) => onChange({ ...seats, connections })}
        />
        <Typography variant="h5" color="primary" data-testid="checkout-price" sx={{ textAlign: 'right' }}>
          {t('financeiro.checkout.perMonth', { price: formatAmount(customPlanPrice(seats.users, seats.connections)) })}
        </Typography>
      </Stack>
    </Paper>
  );
}
