import { useRef, useState } from 'react';
import { Text, Tooltip } from '@mantine/core';

/**
 * A cell's text on one line: cut with an ellipsis where the column is narrower, the whole text in a
 * tooltip then (only then: a short value needs none).
 */
export function OneLine({ text, fw }: { text: string; fw?: number }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [cut, setCut] = useState(false);
  return (
    <Tooltip label={text} disabled={!cut || text === ''} multiline maw={360} openDelay={300}>
      <Text ref={ref} size="sm" fw={fw} truncate="end" onMouseEnter={() => setCut((ref.current?.scrollWidth ?? 0) > (ref.current?.clientWidth ?? 0))}>
        {text}
      </Text>
    </Tooltip>
  );
}
