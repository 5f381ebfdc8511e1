/**
 * Master-admin endpoints: users (search, view, block). Every route checks the master-admin
 * rule (SPEC "Authentication"). Paths are relative to /api; the usage-aggregator
 * status lives in admin_usage.ts.
 */
import { access, Routes } from "../../lib/http/route.ts";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { adminUserView, setUserBlocked } from "../../lib/admin/users.ts";
import { searchUsers, USER_SEARCH_MAX } from "../../lib/admin/user_search.ts";
import {
  adminUserViewSchema,
  userBlockedSchema,
  userSearchSchema,
} from "../../lib/admin/view_schema.ts";

const searchQuery = z.object({
  q: str().max(254).optional(),
  limit: str().regex(/^\d{1,3}$/, `must be an integer from 1 to ${USER_SEARCH_MAX}`)
    .transform(Number).pipe(z.number().int().min(1).max(USER_SEARCH_MAX)).optional(),
}).strict();

const blockSchema = z.object({
  blocked: z.boolean(),
  reason: str().trim().min(1).max(500).optional(),
}).strict();

export function adminRoutes(): Routes {
  const app = new Routes("");

  app.get("/admin/users", {
    access: access.masterAdmin,
    summary: "Searches users by email or name, newest first, with their plan",
    response: userSearchSchema,
    query: searchQuery,
  }, async (c, { query: q }) => {
    return c.json(await searchUsers(c.get("services"), { q: q.q, limit: q.limit ?? 50 }));
  });

  app.get("/admin/users/:userId", {
    access: access.masterAdmin,
    summary: "Shows a user with their tenants, roles and active token count",
    response: adminUserViewSchema,
    errors: [404],
  }, async (c) => {
    return c.json(await adminUserView(c.get("services"), c.req.param("userId")));
  });

  app.post("/admin/users/:userId/block", {
    access: access.masterAdmin,
    summary: "Blocks or unblocks a user; blocking ends all their sessions",
    response: userBlockedSchema,
    errors: [404],
    body: blockSchema,
  }, async (c, { body, auth }) => {
    return c.json(
      await setUserBlocked(c.get("services"), auth.user.id, c.req.param("userId"), body),
    );
  });

  return app;
}
