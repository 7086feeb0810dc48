import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { createQueueBody, MSG, requiredText } from '@balcao/contracts';
import '../../i18n';
import { ColorInput } from './ColorInput';
import { FileInput } from './FileInput';
import { MultiSelectInput, SelectInput } from './SelectInputs';
import { SwitchInput } from './SwitchInput';
import { NumberInput, PasswordInput, TextInput, TimeInput } from './TextInputs';

// The queue dialog's contracts schema, with one field of each other kind.
const schema = createQueueBody.extend({
  password: requiredText(5, 50),
  profile: z.enum(['admin', 'user']),
  whatsappId: z.number().nullable(),
  queueIds: z.array(z.number()),
  startWork: z.string(),
  media: z.instanceof(File).nullable(),
});
type FormIn = z.input<typeof schema>;
type FormOut = z.output<typeof schema>;

const defaults: FormIn = {
  name: 'Vendas',
  color: '#7C7C7C',
  orderQueue: 2,
  closeTicket: false,
  password: 'secret',
  profile: 'user',
  whatsappId: 7,
  queueIds: [1],
  startWork: '08:00',
  media: null,
};

function TestForm({ values = defaults, disabled = false, onSubmit }: { values?: FormIn; disabled?: boolean; onSubmit: (v: FormOut) => void }) {
  const { control, handleSubmit } = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(schema), defaultValues: values });
  const common = { control, disabled };
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
      <TextInput {...common} name="name" label="Nome" testId="name" />
      <ColorInput {...common} name="color" label="Cor" testId="color" fallback="#7C7C7C" />
      <NumberInput {...common} name="orderQueue" label="Ordem" testId="order" />
      <SwitchInput {...common} name="closeTicket" label="Fechar" testId="close" />
      <PasswordInput {...common} name="password" label="Senha" testId="password" />
      <SelectInput
        {...common}
        name="profile"
        label="Perfil"
        testId="profile"
        options={[
          { value: 'admin', label: 'Admin' },
          { value: 'user', label: 'Usuário' },
        ]}
      />
      <SelectInput {...common} name="whatsappId" label="Conexão" testId="whatsapp" noneLabel="Nenhuma" options={[{ value: 7, label: 'Loja' }, { value: 9, label: 'SAC' }]} />
      <MultiSelectInput {...common} name="queueIds" label="Filas" testId="queues" options={[{ value: 1, label: 'Vendas' }, { value: 2, label: 'Suporte' }]} />
      <TimeInput {...common} name="startWork" label="Início" testId="start" />
      <FileInput {...common} name="media" label="Arquivo" testId="media" />
      <button type="submit">ok</button>
    </form>
  );
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const submit = () => act(async () => fireEvent.click(screen.getByText('ok')));
/** Opens a MUI select by its root test id and clicks one of its options. */
async function choose(testId: string, option: () => HTMLElement) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  await act(async () => fireEvent.click(option()));
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
}

afterEach(cleanup);

// jsdom renders MUI slowly on a shared machine: more time than the 5 s default.
describe('form fields', { timeout: 30_000 }, () => {
  it('show the schema message under the field that fails, and submit nothing', async () => {
    const onSubmit = vi.fn();
    render(<TestForm values={{ ...defaults, name: '', password: 'abc' }} onSubmit={onSubmit} />);
    await submit();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(input('name')).toHaveProperty('ariaInvalid', 'true');
    expect(screen.getByText(MSG.required)).toBeTruthy();
    expect(screen.getByText(MSG.tooShort)).toBeTruthy();
  });

  it('hand the defaults back unchanged, in the schema types', async () => {
    const onSubmit = vi.fn();
    render(<TestForm onSubmit={onSubmit} />);
    expect(input('name').value).toBe('Vendas');
    expect(input('order').value).toBe('2');
    expect(input('start').value).toBe('08:00');
    expect(input('close').checked).toBe(false);
    await submit();
    expect(onSubmit.mock.lastCall?.[0]).toMatchObject({ name: 'Vendas', color: '#7C7C7C', orderQueue: 2, closeTicket: false, whatsappId: 7, queueIds: [1] });
  });

  it('carry what the user types and picks into the submitted values', async () => {
    const onSubmit = vi.fn();
    render(<TestForm onSubmit={onSubmit} />);
    fireEvent.change(input('name'), { target: { value: 'Suporte' } });
    fireEvent.change(input('color'), { target: { value: '#00AA00' } });
    fireEvent.change(input('order'), { target: { value: '5' } });
    fireEvent.click(input('close'));
    fireEvent.change(input('password'), { target: { value: 'another' } });
    fireEvent.change(input('start'), { target: { value: '09:30' } });
    await choose('profile', () => screen.getByTestId('profile-admin'));
    await choose('whatsapp', () => screen.getByText('Nenhuma'));
    await choose('queues', () => screen.getByTestId('queues-2'));
    const file = new File(['x'], 'price.pdf', { type: 'application/pdf' });
    fireEvent.change(input('media'), { target: { files: [file] } });
    expect(screen.getByText('price.pdf')).toBeTruthy();
    await submit();
    expect(onSubmit.mock.lastCall?.[0]).toMatchObject({
      name: 'Suporte',
      color: '#00AA00',
      orderQueue: 5,
      closeTicket: true,
      password: 'another',
      profile: 'admin',
      whatsappId: null,
      queueIds: [1, 2],
      startWork: '09:30',
      media: file,
    });
  });

  it('shows the password only on request', () => {
    render(<TestForm onSubmit={vi.fn()} />);
    expect(input('password').type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar senha' }));
    expect(input('password').type).toBe('text');
  });

  it('are all disabled together, and a disabled form still submits its values', async () => {
    const onSubmit = vi.fn();
    render(<TestForm disabled onSubmit={onSubmit} />);
    for (const id of ['name', 'color', 'order', 'close', 'password', 'start', 'media']) expect(input(id).disabled, id).toBe(true);
    for (const id of ['profile', 'whatsapp', 'queues']) {
      expect(within(screen.getByTestId(id)).getByRole('combobox').getAttribute('aria-disabled'), id).toBe('true');
    }
    await submit();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
