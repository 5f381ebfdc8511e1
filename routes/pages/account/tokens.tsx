/** GET /account/tokens: personal access tokens (create shows the token once; list; revoke). */
import type { AccountCtx } from "./shell.tsx";
import { listPersonalTokens } from "../../../lib/auth/tokens.ts";
import { ApiForm, Field } from "../../../components/ApiForm.tsx";
import { Empty, TableWrap, Time } from "../../../components/ui.tsx";

export async function tokensPage({ s, auth }: AccountCtx) {
  const tokens = await listPersonalTokens(s, auth.user.id);
  return (
    <>
      <p>
        A personal access token acts as you on the API (<code>Authorization: Bearer …</code>), for
        scripts and CI. It has your access to every tenant you belong to.
      </p>
      <section class="card">
        <h2>New token</h2>
        <ApiForm
          api="/api/user/tokens"
          submit="Create token"
          done="Token “{name}” created. Copy it now: it is shown only once"
          reveal={{ key: "token", label: "token" }}
        >
          <Field name="name" label="Name" required placeholder="ci-deploy" hint="What uses it." />
        </ApiForm>
      </section>
      <section class="card">
        <h2>Your tokens</h2>
        {tokens.length === 0
          ? (
            <Empty title="No tokens yet">
              Create one above; the API accepts it as a Bearer token.
            </Empty>
          )
          : (
            <TableWrap label="Personal access tokens">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id}>
                    <td>{t.name}</td>
                    <td>
                      <Time at={t.createdAt} />
                    </td>
                    <td>
                      {t.lastUsedAt ? <Time at={t.lastUsedAt} /> : <span class="muted">never</span>}
                    </td>
                    <td>
                      <ApiForm
                        api={`/api/user/tokens/${t.id}`}
                        method="DELETE"
                        submit="Revoke"
                        confirm={`Revoke the token “${t.name}”? Anything using it stops working now.`}
                        done="Token revoked"
                        layout="inline"
                        danger
                        label={`Revoke ${t.name}`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableWrap>
          )}
      </section>
    </>
  );
}
