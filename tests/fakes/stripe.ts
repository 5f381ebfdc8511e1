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
  idempotencyKey: string | null;
};

/** A billing meter event as Stripe keeps it: one per idempotency key (and per identifier). */
export type MeterEvent = { eventName: string; customer: string; value: number; identifier: string };

export function startFakeStripe() {
  const requests: StripeRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  const meterEvents: MeterEvent[] = [];
  const idempotent = new Map<string, Response>();
  let meterFailures = 0;
  let n = 0;
  const server = serveOnLoopback(async (req) => {
    const url = new URL(req.url);
    const params = Object.fromEntries(new URLSearchParams(await req.text()));
    requests.push({
      method: req.method,
      path: url.pathname,
      params,
      authorization: req.headers.get("authorization"),
      idempotencyKey: req.headers.get("idempotency-key"),
    });
    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /v1/billing/meter_events") {
      if (meterFailures > 0) {
        meterFailures--;
        return Response.json({ error: { type: "api_error", message: "try later" } }, {
          status: 500,
        });
      }
      // Stripe replays the first answer for a repeated Idempotency-Key and records nothing new.
      const key = req.headers.get("idempotency-key");
      if (key && idempotent.has(key)) return idempotent.get(key)!.clone();
      const identifier = params.identifier ?? `auto_${++n}`;
      if (!meterEvents.some((e) => e.identifier === identifier)) {
        meterEvents.push({
          eventName: params.event_name,
          customer: params["payload[stripe_customer_id]"],
          value: Number(params["payload[value]"]),
          identifier,
        });
      }
      const res = Response.json({
        object: "billing.meter_event",
        event_name: params.event_name,
        identifier,
        payload: { stripe_customer_id: params["payload[stripe_customer_id]"] },
        timestamp: Number(params.timestamp ?? 0),
      });
      if (key) idempotent.set(key, res.clone());
      return res;
    }
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
    meterEvents,
    /** Answer the next `n` meter event posts with a 500. */
    failMeterEvents(count: number) {
      meterFailures = count;
    },
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
