import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { customPlanPrice, type Invoice, type SubscriptionResponse } from '@balcao/contracts';
import { useSubscribe } from '../../api/billing';
import { useUser } from '../../api/session';
import { formatAmount } from '../../components/format';
import { toast, toastError } from '../../components/toast';
import { PixPayment } from './PixPayment';
import { PlanEditor, type Seats } from './PlanEditor';
import { initialSeats } from './seats';

const STEPS = ['data', 'customize', 'review'] as const;
/** Spec 3 §2: the checkout starts at Personalizar (Dados is skipped). */
const FIRST_STEP = 1;

/** Checkout of one invoice: Personalizar → Revisar → Pay (`POST /subscription`) → the PIX code screen. */
export function CheckoutDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const subscribe = useSubscribe();
  const [step, setStep] = useState<number>(FIRST_STEP);
  const [seats, setSeats] = useState<Seats>(() => ({ users: initialSeats(user.company.plan?.users), connections: initialSeats(user.company.plan?.connections) }));
  const [charge, setCharge] = useState<SubscriptionResponse | null>(null);
  const price = customPlanPrice(seats.users, seats.connections);

  const pay = async () => {
    try {
      const plan = JSON.stringify({ ...seats, price, queues: user.company.plan?.queues ?? 0 });
      setCharge(await subscribe.mutateAsync({ invoiceId: invoice.id, ...seats, plan, price }));
      toast.success(t('financeiro.subscribed'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="checkout-title" data-testid="checkout-dialog">
      <DialogTitle id="checkout-title">{t('financeiro.checkout.title')}</DialogTitle>
      <DialogContent>
        {charge ? (
          <PixPayment charge={charge} />
        ) : (
          <Stack spacing={3} sx={{ pt: 1 }}>
            <Stepper activeStep={step} alternativeLabel>
              {STEPS.map((name) => (
                <Step key={name}>
                  <StepLabel>{t(`financeiro.checkout.steps.${name}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === 1 && <PlanEditor seats={seats} onChange={setSeats} />}
            {step === 2 && (
              <Stack spacing={1} data-testid="checkout-review">
                <Typography variant="h6">{t('financeiro.checkout.reviewTitle')}</Typography>
                <Typography>{invoice.detail}</Typography>
                <Typography>{t('financeiro.checkout.reviewLine', { users: seats.users, connections: seats.connections })}</Typography>
                <Typography variant="h5" color="primary">
                  {t('financeiro.checkout.total')}: R$ {formatAmount(price)}
                </Typography>
              </Stack>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {charge ? (
          <Button onClick={onClose}>{t('financeiro.checkout.close')}</Button>
        ) : (
          <>
            {step > FIRST_STEP && (
              <Button onClick={() => setStep(step - 1)} disabled={subscribe.isPending} data-testid="checkout-back">
                {t('financeiro.checkout.back')}
              </Button>
            )}
            {step < STEPS.length - 1 ? (
              <Button variant="contained" onClick={() => setStep(step + 1)} data-testid="checkout-next">
                {t('financeiro.checkout.next')}
              </Button>
            ) : (
              <Button
                variant="contained"
                onClick={() => void pay()}
                disabled={subscribe.isPending}
                data-testid="checkout-pay"
                startIcon={subscribe.isPending ? <CircularProgress size={16} aria-label={t('financeiro.checkout.pay')} /> : undefined}
              >
                {t('financeiro.checkout.pay')}
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
