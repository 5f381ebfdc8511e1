/**
 * The webhooks page and scope: the create form offers the scope and preselects "entities"
 * (recommended) for a CMS tenant, "all" for a generic one; each card switches scope; the
 * events show what an "entities" delivery purged, or why it bumped the version instead.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";

/** The markup of the form labelled `label`. */
function formHtml(html: string, label: string): string {
  const start = html.indexOf(`aria-label="${label}"`);
  assert(start > 0, `form "${label}" is on the page`);
  return html.slice(start, html.indexOf("</form>", start));
}

dbTest(
  "webhooks page: scope offered, entities recommended for a CMS, purges shown",
  async (app) => {
    const owner = await signUp(app);
    const cf = await createTenant(owner, { cms: "contentful", spaceId: "space1", token: "tok" });
    const generic = await createTenant(owner);
    const cfPage = (await owner.get(`/dashboard/${cf}/webhooks`)).text;
    const form = formHtml(cfPage, "Create a webhook");
    assertStringIncludes(form, 'name="scope"');
    assertStringIncludes(form, '<option value="entities" selected');
    assertStringIncludes(form, '<option value="contentful" selected');
    // each provider by its definition's label, not its kind
    assert(/<option value="storyblok"[^>]*>Storyblok<\/option>/.test(form), "labelled options");
    const genericForm = formHtml(
      (await owner.get(`/dashboard/${generic}/webhooks`)).text,
      "Create a webhook",
    );
    assertStringIncludes(genericForm, '<option value="all" selected');
    // the provider a generic tenant's CMS calls with: not the first CMS kind next to "all"
    assertStringIncludes(genericForm, '<option value="generic" selected');

    const hooks = `/api/tenants/${cf}/cache-refresh-webhooks`;
    const w = await owner.post(hooks, { provider: "contentful", scope: "entities" });
    const receiver = new URL(w.body.url).pathname;
    const anon = new Client(app);
    const topic = { "x-contentful-topic": "ContentManagement.Entry.publish" };
    const entry = {
      sys: { id: "alpha", type: "Entry", revision: 3, contentType: { sys: { id: "post" } } },
    };
    assertEquals((await anon.post(receiver, entry, topic)).status, 200);
    assertEquals((await anon.post(receiver, "{oops", topic)).status, 200);
    const page = (await owner.get(`/dashboard/${cf}/webhooks`)).text;
    assertStringIncludes(page, "1 entity (alpha), lists of post");
    assertStringIncludes(page, '<td data-purged="fallback">', "the bad payload bumped instead");
    assertStringIncludes(page, `aria-label="Webhook ${w.body.webhook.id}" data-scope="entities"`);
    const scopeForm = formHtml(page, `Scope of webhook ${w.body.webhook.id}`);
    assertStringIncludes(scopeForm, 'name="scope" value="all"');
  },
);
