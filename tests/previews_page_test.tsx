/**
 * The Previews area of the dashboard: an editor makes a link through the form bridge (shown
 * once), admins get the credential and rotation forms, viewers a refusal; the provider's
 * draft switches are listed from its definition.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";

function postForm(c: Client, fields: Record<string, string>) {
  return c.request("POST", "/forms", new URLSearchParams(fields).toString(), {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  });
}

dbTest(
  "previews page: editors make links, admins rotate and set the credential, viewers are refused",
  async (app) => {
    const owner = await signUp(app);
    const slug = await createTenant(owner, { cms: "storyblok" });
    const page = await owner.get(`/dashboard/${slug}/previews`);
    assertEquals(page.status, 200);
    assertStringIncludes(page.text, 'aria-label="Make a preview link"');
    assertStringIncludes(page.text, 'aria-label="Rotate the preview-link secret"');
    assertStringIncludes(page.text, "from_release"); // Storyblok's switches, from sdk/drafts.ts
    const editor = await memberWithRole(app, owner, slug, "editor");
    const ed = await editor.get(`/dashboard/${slug}/previews`);
    assertStringIncludes(ed.text, 'aria-label="Make a preview link"');
    assert(!ed.text.includes('aria-label="Rotate the preview-link secret"'));
    assertStringIncludes(ed.text, 'data-refusal="admin"', "the editor is told admin is needed");
    const made = await postForm(editor, {
      _api: `/api/tenants/${slug}/preview-links`,
      _reveal: "url",
      _reveal_label: "Preview link",
      path: "/~api/stories",
      "ttlSeconds:number": "3600",
    });
    assertEquals(made.body.outcome.ok, true, made.text);
    assertStringIncludes(
      made.body.outcome.reveal.value,
      "/~api/stories?cachely-preview-token=cpl1.",
    );
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const v = await viewer.get(`/dashboard/${slug}/previews`);
    assert(!v.text.includes('aria-label="Make a preview link"'));
    assertStringIncludes(v.text, 'data-refusal="editor"');
    assert(!(await viewer.get(`/dashboard/${slug}`)).text.includes(`/dashboard/${slug}/previews"`));
  },
);
