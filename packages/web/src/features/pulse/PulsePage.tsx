import { Anchor, Stack, Text, Title } from '@mantine/core';
import { parsePulseQuery, PULSE_INVALID_FORMAT } from '@sluice/api';
import { Link, useSearchParams } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { BoardGraphView } from './BoardGraphView.js';
import { DEFAULT_BOARD, customGraph } from './board.js';
import { PulseQueryField } from './PulseQueryField.js';

/**
 * The Pulse board (spec 000 §2): the default graphs, or the graph of the custom query named in the
 * address (`?query=`), so "back to board" is a plain link and a custom graph can be bookmarked.
 */
export function PulsePage() {
  const [params, setParams] = useSearchParams();
  const shown = params.get('query');
  return (
    <Stack gap="lg">
      <Title order={2}>Pulse</Title>
      <PulseQueryField key={shown ?? ''} initial={shown ?? ''} onShow={(query) => setParams({ query })} />
      {shown === null ? (
        DEFAULT_BOARD.map((graph) => <BoardGraphView key={graph.id} graph={graph} />)
      ) : (
        <>
          <Anchor component={Link} to={pathTo('pulse')}>
            back to board
          </Anchor>
          {parsePulseQuery(shown) ? (
            <BoardGraphView key={shown} graph={customGraph(shown)} />
          ) : (
            <Text c="red">{PULSE_INVALID_FORMAT}</Text>
          )}
        </>
      )}
    </Stack>
  );
}
