// The datasets more than one classifier is trained on, as manifests name them (name, folder under
// ../shared/datasets, licence); each use adds its split.
export const GOEMO = { name: 'GoEmotions', path: 'emotion/goemotions', licence: 'Apache-2.0' }
export const BBC = {
  name: 'BBC News (Greene & Cunningham 2006)',
  path: 'taxonomy/bbc-news',
  licence: 'research use only (articles copyright BBC)'
}
export const AG = {
  name: 'AG News (20k of train)',
  path: 'taxonomy/ag-news',
  licence: 'research and non-commercial use'
}
export const HUFFPOST = {
  name: 'HuffPost news category headlines (Bao et al. 36k)',
  path: 'taxonomy/huffpost-news-category-bao36k',
  licence: 'CC BY 4.0 (Misra 2018 dataset; not verified)'
}
export const CLINC = { name: 'CLINC150', path: 'intent/clinc150', licence: 'CC BY 3.0' }
