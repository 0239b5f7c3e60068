import { DictionaryPage } from '../../features/system-config/DictionaryPage.tsx';

export default DictionaryPage;
