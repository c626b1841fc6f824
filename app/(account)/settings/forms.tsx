'use client';
// The settings forms that answer in place (a token shown once, errors next to the field).
import { useActionState } from 'react';
import { createApiTokenAction, deleteAccountAction, setModelKeyAction, type FormState } from '../_actions/settings';

const input = 'rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900';
const button = 'rounded-lg bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60';

function Problem({ state }: { state: FormState }) {
  return state.error ? (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {state.error}
    </p>
  ) : null;
}

export function CreateTokenForm({ scopes }: { scopes: readonly string[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(createApiTokenAction, { error: null });
  return (
    <form action={action} className="space-y-3" data-testid="create-token-form">
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          Name
          <input name="name" required maxLength={60} placeholder="laptop CLI" className={input} />
        </label>
        <fieldset className="flex gap-3 text-sm">
          <legend className="sr-only">Scopes</legend>
          {scopes.map((s) => (
            <label key={s} className="flex items-center gap-1">
              <input type="checkbox" name="scope" value={s} defaultChecked={s !== 'publish'} /> {s}
            </label>
          ))}
        </fieldset>
        <label className="grid gap-1 text-sm">
          Expires
          <select name="expiresInDays" defaultValue="30" className={input}>
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="366">in a year</option>
            <option value="never">never</option>
          </select>
        </label>
        <button type="submit" disabled={pending} className={button}>
          Create token
        </button>
      </div>
      <Problem state={state} />
      {state.token && (
        <div className="space-y-1 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/30">
          <p className="font-medium">Copy it now: it is shown only once.</p>
          <code className="block break-all font-mono" data-testid="new-token">
            {state.token}
          </code>
        </div>
      )}
    </form>
  );
}

export function ModelKeyForm({ providers }: { providers: readonly string[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(setModelKeyAction, { error: null });
  return (
    <form action={action} className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          Provider
          <select name="provider" className={input}>
            {providers.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="grid min-w-0 flex-1 basis-48 gap-1 text-sm">
          API key
          <input name="key" type="password" required autoComplete="off" className={`${input} w-full`} />
        </label>
        <button type="submit" disabled={pending} className={button}>
          Save key
        </button>
      </div>
      <Problem state={state} />
      {state.done && <p className="text-sm text-emerald-700 dark:text-emerald-400">{state.done}</p>}
    </form>
  );
}

export function DeleteAccountForm({ confirmWith }: { confirmWith: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(deleteAccountAction, { error: null });
  return (
    <form action={action} className="space-y-2">
      <label className="grid gap-1 text-sm">
        <span>
          Type <code>{confirmWith}</code> to confirm
        </span>
        <input name="confirm" required autoComplete="off" className={input} />
      </label>
      <Problem state={state} />
      <button type="submit" disabled={pending} className="rounded-lg bg-red-600 px-3 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60">
        Delete my account
      </button>
    </form>
  );
}
