/** Every island by name: the server renders them, the client entry hydrates them. */
import { JsonForm, type JsonFormProps } from "./JsonForm.tsx";
import { ActionButton, type ActionButtonProps } from "./ActionButton.tsx";
import { PreviewPanel, type PreviewPanelProps } from "./PreviewPanel.tsx";

export type IslandProps = {
  JsonForm: JsonFormProps;
  ActionButton: ActionButtonProps;
  PreviewPanel: PreviewPanelProps;
};
export type IslandName = keyof IslandProps;

export const ISLANDS: { [N in IslandName]: (props: IslandProps[N]) => unknown } = {
  JsonForm,
  ActionButton,
  PreviewPanel,
};
