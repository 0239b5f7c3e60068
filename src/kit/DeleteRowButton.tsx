import { notifications } from '@mantine/notifications';
import { Perm } from '../app/Perm.tsx';
import { ConfirmButton } from './ConfirmButton.tsx';

export interface DeleteRowButtonProps {
  /** Registry route whose `delete` button guards this action. */
  route: string;
  /** The confirmation question, naming the row. */
  message: string;
  label: string;
  /** Toast text after a successful delete. */
  deletedMessage: string;
  /** Calls the server (silently: a failure stays in the dialog). */
  onDelete: () => Promise<unknown>;
  /** Refreshes whatever lists the row. */
  onDeleted: () => void;
}

/** The table row's delete action: permission-guarded, asks first, toasts, then refreshes. */
export function DeleteRowButton({ route, message, label, deletedMessage, onDelete, onDeleted }: DeleteRowButtonProps) {
  return (
    <Perm route={route} button="delete">
      <ConfirmButton
        size="compact-xs"
        variant="light"
        data-perm={`${route}:delete`}
        message={message}
        onConfirm={async () => {
          await onDelete();
          notifications.show({ color: 'green', message: deletedMessage, autoClose: 2000 });
          onDeleted();
        }}
      >
        {label}
      </ConfirmButton>
    </Perm>
  );
}
