import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TextInput } from '../../../src/views/components';

function Controlled({ seen }: { seen: string[] }) {
  const [value, setValue] = useState('moments');
  return (
    <TextInput
      label="Search"
      clearable
      value={value}
      onChange={(event) => {
        seen.push(event.target.value);
        setValue(event.target.value);
      }}
    />
  );
}

describe('TextInput', () => {
  it('labels the input and passes attributes through', () => {
    render(<TextInput label="Username" name="username" placeholder="satoshi" required />);
    const input = screen.getByLabelText(/Username/) as HTMLInputElement;
    expect(input.name).toBe('username');
    expect(input.placeholder).toBe('satoshi');
    expect(input.required).toBe(true);
    expect(input.type).toBe('text');
  });

  it('shows an error with role alert, marks the input invalid and describes it by the error', () => {
    render(<TextInput label="Email" hint="We never share it." error="Enter a valid email" />);
    const input = screen.getByLabelText('Email');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Enter a valid email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy).toContain(alert.id);
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain('We never share it.');
  });

  it('has no alert and no aria-invalid without an error', () => {
    render(<TextInput label="Email" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Email').hasAttribute('aria-invalid')).toBe(false);
    expect(screen.getByLabelText('Email').hasAttribute('aria-describedby')).toBe(false);
  });

  it('toggles a password between hidden and shown', async () => {
    const user = userEvent.setup();
    render(<TextInput label="Password" type="password" defaultValue="s3cret!" />);
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.type).toBe('text');
    expect(input.value).toBe('s3cret!');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input.type).toBe('password');
  });

  it('clears an uncontrolled value with the Clear button, and FormData sees the new value', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const onClear = vi.fn();
    const { container } = render(
      <form>
        <TextInput label="Search" name="q" clearable onChange={onChange} onClear={onClear} />
      </form>,
    );
    const input = screen.getByLabelText('Search') as HTMLInputElement;
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();

    await user.type(input, 'punk');
    expect(new FormData(container.querySelector('form')!).get('q')).toBe('punk');
    await user.click(screen.getByRole('button', { name: 'Clear' }));

    expect(input.value).toBe('');
    expect(new FormData(container.querySelector('form')!).get('q')).toBe('');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ target: input }));
    expect(onClear).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(input);
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
  });

  it('clears a controlled value through onChange', async () => {
    const user = userEvent.setup();
    const seen: string[] = [];
    render(<Controlled seen={seen} />);
    const input = screen.getByLabelText('Search') as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(seen).toEqual(['']);
    expect(input.value).toBe('');
  });

  it('locks a read-only field: lock icon, no clear button, value kept', async () => {
    const user = userEvent.setup();
    render(<TextInput label="Email" readOnly clearable value="ada@example.com" name="email" />);
    const input = screen.getByLabelText('Email') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(screen.getByTestId('input-lock')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    await user.type(input, 'x');
    expect(input.value).toBe('ada@example.com');
  });

  it('keeps a given id and a caller aria-describedby', () => {
    render(
      <>
        <p id="extra">extra</p>
        <TextInput id="last" label="Last name" aria-describedby="extra" error="Required" />
      </>,
    );
    const input = screen.getByLabelText('Last name');
    expect(input.id).toBe('last');
    expect(input.getAttribute('aria-describedby')).toBe('last-error extra');
  });
});
