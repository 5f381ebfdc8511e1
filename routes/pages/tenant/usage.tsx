/** Usage & analytics: requests and bandwidth per day, hit ratio, top paths, status codes. */
import type { TenantAreaPage } from "./shell.tsx";
import { Empty } from "../../../components/ui.tsx";

export const usagePage: TenantAreaPage = () => {
  return <Empty title="No traffic yet">Charts appear once requests go through the proxy.</Empty>;
};
