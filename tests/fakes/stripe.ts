/**
 * A loopback fake of the few Stripe API endpoints billing calls, driven through the real SDK
 * (STRIPE_API_BASE points here). Records every request; subscriptions are set by the test.
 */
import { serveOnLoopback } from "../harness.ts";

export type StripeRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | null;
};

export function startFakeStripe() {
  const requests: StripeRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  let n = 0;
  const server = serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    const params = Object.fromEntries(new URLSearchParams(await req.text()));
    requests.push({
      method: req.method,
      path: url.pathname,
      params,
      authorization: req.headers.get("authorization"),
    });
    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /v1/customers") {
      return Response.json({ id: `cus_${++n}`, object: "customer", email: params.email ?? null });
    }
    if (route === "POST /v1/checkout/sessions") {
      const id = `cs_test_${++n}`;
      return Response.json({ id, object: "checkout.session", url: `https://checkout.fake/${id}` });
    }
    if (route === "POST /v1/billing_portal/sessions") {
      const id = `bps_${++n}`;
      return Response.json({
        id,
        object: "billing_portal.session",
        url: `https://portal.fake/${id}`,
      });
    }
    const sub = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (req.method === "GET" && sub && subscriptions.has(sub[1])) {
      return Response.json(subscriptions.get(sub[1]));
    }
    return Response.json(
      { error: { type: "invalid_request_error", message: `No such resource: ${route}` } },
      { status: 404 },
    );
  });
  return {
    url: server.url,
    requests,
    /** Makes GET /v1/subscriptions/{id} answer this subscription. */
    setSubscription(sub: Record<string, unknown> & { id: string }) {
      subscriptions.set(sub.id, sub);
    },
    close: () => server.close(),
  };
}

/** A Stripe subscription object as the API returns it (period on the items since 2025-03-31). */
export function fakeSubscription(
  id: string,
  customer: string,
  status: string,
  periodEnd: number,
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    object: "subscription",
    customer,
    status,
    cancel_at_period_end: false,
    items: { object: "list", data: [{ id: `si_${id}`, current_period_end: periodEnd }] },
    metadata: {},
    ...extra,
  };
}
