import { Button, Code, Collapse, Stack } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { nearBottom } from './log-lines.js';
import { useMediaLog } from './use-media-log.js';

/**
 * The live log (spec 001 §4): collapsed at first; the first expand subscribes, collapsing keeps
 * the subscription. The box is two thirds of the window high and follows new lines while the
 * operator is near its bottom.
 */
export function LogPanel({ name }: { name: string }) {
  const [opened, setOpened] = useState(false);
  const [subscribed, setSubscribed] = useState(false);
  const lines = useMediaLog(name, subscribed);
  const box = useRef<HTMLPreElement>(null);
  const stick = useRef(true);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [lines, opened]);

  const toggle = () => {
    setOpened((o) => !o);
    setSubscribed(true);
  };

  return (
    <Stack gap="xs">
      <Button variant="default" w="fit-content" onClick={toggle} aria-expanded={opened}>
        {opened ? 'Hide log' : 'Show log'}
      </Button>
      <Collapse expanded={opened}>
        <Code
          block
          ref={box}
          aria-label="stream log"
          onScroll={(event) => (stick.current = nearBottom(event.currentTarget))}
          style={{ height: '66.67vh', overflowY: 'auto' }}
        >
          {lines.join('\n')}
        </Code>
      </Collapse>
    </Stack>
  );
}
