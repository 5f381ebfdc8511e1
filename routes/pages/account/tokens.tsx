/** GET /account/tokens: personal access tokens (create shows the token once; list; revoke). */
import type { AccountCtx } from "./shell.tsx";
import { listPersonalTokens } from "../../../lib/auth/tokens.ts";
import { ApiForm, Field, Select } from "../../../components/ApiForm.tsx";
import { Empty, TableWrap, Time } from "../../../components/ui.tsx";

// Long: one page's markup: the new-token form (name, scopes, expiry; the token is revealed once)
// and the table of the user's tokens with a revoke button each; two sections and no logic but the
// data load.
export async function tokensPage({ s, auth }: AccountCtx) {
  const tokens = await listPersonalTokens(s, auth.user.id);
  return (
    <>
      <p>
        A personal access token acts as you on the API (<code>
          Authorization: Bearer {`\u2026`}
        </code>), for scripts and CI. It has your access to every tenant you belong to, limited by
        its scopes: <strong>read</strong> (look only), <strong>write</strong>{" "}
        (change content and settings your role allows), <strong>admin</strong>{" "}
        (also tenant admin and owner actions, your account and making more tokens). Changing or
        resetting your password revokes every token.
      </p>
      <section class="card">
        <h2>New token</h2>
        <ApiForm
          api="/api/user/tokens"
          submit="Create token"
          done={`Token \u201c{name}\u201d created. Copy it now: it is shown only once`}
          reveal={{ key: "token", label: "token" }}
        >
          <Field name="name" label="Name" required placeholder="ci-deploy" hint="What uses it." />
          <Select
            name="scopes:json"
            label="Scopes"
            value={JSON.stringify(["read", "write", "admin"])}
            options={[
              { value: JSON.stringify(["read"]), label: "read" },
              { value: JSON.stringify(["read", "write"]), label: "read, write" },
              { value: JSON.stringify(["read", "write", "admin"]), label: "read, write, admin" },
            ]}
          />
          <Field
            name="expiresAt:null"
            label="Expires"
            placeholder="YYYY-MM-DD"
            hint="Optional (YYYY-MM-DD), at most a year ahead; empty: until you revoke it."
          />
        </ApiForm>
      </section>
      <section class="card">
        <h2>Your tokens</h2>
        {tokens.length === 0
          ? (
            <Empty title="No tokens yet" name="tokens">
              Create one above; the API accepts it as a Bearer token.
            </Empty>
          )
          : (
            <TableWrap label="Personal access tokens">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
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
                    <td>{t.scopes.join(", ")}</td>
                    <td>
                      <Time at={t.createdAt} />
                    </td>
                    <td>
                      {t.expiresAt ? <Time at={t.expiresAt} /> : <span class="muted">never</span>}
                    </td>
                    <td>
                      {t.lastUsedAt ? <Time at={t.lastUsedAt} /> : <span class="muted">never</span>}
                    </td>
                    <td>
                      <ApiForm
                        api={`/api/user/tokens/${t.id}`}
                        method="DELETE"
                        submit="Revoke"
                        confirm={`Revoke the token \u201c${t.name}\u201d? Anything using it stops working now.`}
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
