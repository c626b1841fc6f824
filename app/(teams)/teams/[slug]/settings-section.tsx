import { deleteTeamAction, renameTeamAction } from '../../_actions/team';
import { ActionForm } from '../../_components/action-form';
import { danger, input, muted, quiet, section } from '../../_components/styles';

export function SettingsSection({ slug, name, owner }: { slug: string; name: string; owner: boolean }) {
  return (
    <section className={section} aria-labelledby="settings-h">
      <h2 id="settings-h" className="font-semibold">
        Settings
      </h2>
      <ActionForm action={renameTeamAction} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="team" value={slug} />
        <label className="text-sm" htmlFor="team-display-name">
          Display name
        </label>
        <input id="team-display-name" name="name" defaultValue={name} required maxLength={100} className={`${input} min-w-[10rem] flex-1`} />
        <button type="submit" className={quiet}>
          Rename
        </button>
      </ActionForm>
      {owner && (
        <ActionForm action={deleteTeamAction} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="team" value={slug} />
          <p className={`${muted} basis-full`}>Deleting the team deletes its private skills, secrets and tokens. A team with public skills cannot be deleted.</p>
          <label className="text-sm" htmlFor="confirm-delete">
            Type {slug} to confirm
          </label>
          <input id="confirm-delete" name="confirm" required className={`${input} w-40`} />
          <button type="submit" className={danger}>
            Delete team
          </button>
        </ActionForm>
      )}
    </section>
  );
}
